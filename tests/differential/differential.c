/* The differential suite's driver (tests/differential/README.md).
 *
 *     differential [--seed S] [--cases N] [--seconds T] [--first K] [--path NAME]
 *                  [--out DIR] [--dump] [--verbose]
 *
 * Case k of seed S draws its instance from a generator seeded by (S, k) alone, so that
 * `--seed S --first k --cases 1` runs it again; the paths take turns (chain-glpk,
 * selection, integer, verify, export, installments, evaluate, bench), and one case in 50
 * is at scale. A failed check prints the seed, the case and what differed, and writes the
 * instance (the platform file and a note with the load and options) into --out (default
 * the current directory; --dump writes every case's instance, failing or not). Exit status: 0 when every check held, 1 when one failed, 2 for
 * bad usage. Without --seed: DLS_DIFF_SEED, else a fixed default; without --cases:
 * DLS_DIFF_N, else 600. --seconds stops earlier (a soak). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diff.h"

/* The default seed and number of cases (make check). */
#define DIFF_DEFAULT_SEED 20261127u
#define DIFF_DEFAULT_CASES 600
/* One case in this many runs at scale (1,000 to 10^4 processors). */
#define DIFF_SCALE_EVERY 50

/* glpsol and the source tree, as the build says (TEST_CPPFLAGS) */
#ifndef GLPSOL
#define GLPSOL ""
#endif
#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif
const char *diff_glpsol = GLPSOL;
const char *diff_top_srcdir = TOP_SRCDIR;

static const struct {
    const char *name;
    diff_path_fn fn;
} paths[] = {
    {"chain-glpk", diff_path_chain_glpk},     {"selection", diff_path_selection},
    {"integer", diff_path_integer},           {"verify", diff_path_verify},
    {"export", diff_path_export},             {"installments", diff_path_installments},
    {"evaluate", diff_path_evaluate},         {"bench", diff_path_bench},
    {"scale", diff_path_scale},
};
#define NPATHS (sizeof paths / sizeof paths[0])

/* ---------------------------------------------------------------------------------- */
/* Failures */

int diff_close(double a, double b, double rel)
{
    if (a == b)
        return 1;
    return fabs(a - b) <= rel * fmax(fabs(a), fabs(b));
}

/* The instance of a failing case, once: DIR/diff-SEED-CASE.json and .txt. */
void diff_write_instance(diff_case *c, const char *message)
{
    char path[1024];
    dls_error err;
    snprintf(path, sizeof path, "%s/diff-%llu-%llu.json", c->out_dir,
             (unsigned long long)c->seed, (unsigned long long)c->index);
    if (c->platform != NULL && dls_platform_write_file(c->platform, path, &err) != DLS_OK)
        fprintf(stderr, "differential: %s\n", err.message);
    snprintf(path, sizeof path, "%s/diff-%llu-%llu.txt", c->out_dir,
             (unsigned long long)c->seed, (unsigned long long)c->index);
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return;
    fprintf(f, "seed %llu case %llu path %s\nload %.17g\n%s\n%s\nrun again: differential "
            "--seed %llu --first %llu --cases 1\n", (unsigned long long)c->seed,
            (unsigned long long)c->index, c->path, c->load, c->what, message,
            (unsigned long long)c->seed, (unsigned long long)c->index);
    fclose(f);
}

void diff_fail(diff_case *c, const char *fmt, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    printf("FAIL: seed %llu case %llu %s (%s): %s\n", (unsigned long long)c->seed,
           (unsigned long long)c->index, c->path, c->what, message);
    if (c->failures++ == 0)
        diff_write_instance(c, message);
}

void diff_done(diff_case *c, dls_platform *pl)
{
    if (c->dump && c->failures == 0 && pl != NULL)
        diff_write_instance(c, "(written by --dump)");
    dls_platform_free(pl);
    c->platform = NULL;
}

void diff_skip(diff_case *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why, sizeof c->why, fmt, ap);
    va_end(ap);
    c->skipped = 1;
}

/* ---------------------------------------------------------------------------------- */
/* The run */

typedef struct options {
    uint64_t seed, first, cases;
    double seconds;
    const char *only, *out;
    int verbose, dump;
} options;

static int usage(const char *why)
{
    fprintf(stderr, "differential: %s\nusage: differential [--seed S] [--cases N] [--seconds T] "
            "[--first K] [--path NAME] [--out DIR] [--dump] [--verbose]\n", why);
    return 2;
}

static int parse(int argc, char **argv, options *o)
{
    const char *env = getenv("DLS_DIFF_SEED"), *n = getenv("DLS_DIFF_N");
    o->seed = env && *env ? strtoull(env, NULL, 10) : DIFF_DEFAULT_SEED;
    o->cases = n && *n ? strtoull(n, NULL, 10) : DIFF_DEFAULT_CASES;
    o->first = 0;
    o->seconds = INFINITY;
    o->only = NULL;
    o->out = ".";
    o->verbose = o->dump = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--verbose") == 0 || strcmp(a, "--dump") == 0) {
            *(a[2] == 'v' ? &o->verbose : &o->dump) = 1;
            continue;
        }
        if (v == NULL)
            return usage("an option lacks its value");
        i++;
        if (strcmp(a, "--seed") == 0)
            o->seed = strtoull(v, NULL, 10);
        else if (strcmp(a, "--cases") == 0)
            o->cases = strtoull(v, NULL, 10);
        else if (strcmp(a, "--first") == 0)
            o->first = strtoull(v, NULL, 10);
        else if (strcmp(a, "--seconds") == 0)
            o->seconds = strtod(v, NULL);
        else if (strcmp(a, "--path") == 0)
            o->only = v;
        else if (strcmp(a, "--out") == 0)
            o->out = v;
        else
            return usage("unknown option");
    }
    for (size_t k = 0; o->only && k < NPATHS; k++)
        if (strcmp(o->only, paths[k].name) == 0)
            return 0;
    return o->only ? usage("unknown path") : 0;
}

/* Case k's path: the paths in turn, one case in DIFF_SCALE_EVERY at scale. */
static size_t path_of(uint64_t k, const char *only)
{
    for (size_t p = 0; only && p < NPATHS; p++)
        if (strcmp(only, paths[p].name) == 0)
            return p;
    if (k % DIFF_SCALE_EVERY == DIFF_SCALE_EVERY - 1)
        return NPATHS - 1;
    return (size_t)(k % (NPATHS - 1));
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* a soak's failures show as they come */
    options o;
    int rc = parse(argc, argv, &o);
    if (rc != 0)
        return rc;
    printf("# differential: seed %llu, cases %llu to %llu%s\n", (unsigned long long)o.seed,
           (unsigned long long)o.first, (unsigned long long)(o.first + o.cases - 1),
           isfinite(o.seconds) ? " (or the time limit)" : "");
    unsigned long long ran[NPATHS] = {0}, skipped[NPATHS] = {0}, failed[NPATHS] = {0};
    double t0 = now();
    uint64_t k;
    for (k = o.first; k < o.first + o.cases && now() - t0 < o.seconds; k++) {
        size_t p = path_of(k, o.only);
        diff_case c;
        memset(&c, 0, sizeof c);
        c.seed = o.seed;
        c.index = k;
        c.path = paths[p].name;
        c.out_dir = o.out;
        c.verbose = o.verbose;
        c.dump = o.dump;
        diff_rng r;
        diff_rng_init(&r, o.seed, k);
        paths[p].fn(&r, &c);
        ran[p]++;
        skipped[p] += c.skipped && c.failures == 0;
        failed[p] += c.failures > 0;
        if (c.skipped && o.verbose)
            printf("# case %llu %s: skipped: %s\n", (unsigned long long)k, c.path, c.why);
    }
    unsigned long long total_failed = 0;
    for (size_t p = 0; p < NPATHS; p++) {
        printf("# %-13s %6llu cases, %llu skipped, %llu failed\n", paths[p].name, ran[p],
               skipped[p], failed[p]);
        total_failed += failed[p];
    }
    printf("# %llu cases in %.1f s (seed %llu): %s\n", (unsigned long long)(k - o.first),
           now() - t0, (unsigned long long)o.seed,
           total_failed ? "FAILED (instances written beside)" : "every check held");
    return total_failed ? 1 : 0;
}
