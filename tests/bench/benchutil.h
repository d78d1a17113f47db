/* Shared by the benchmarks (tests/bench/bench_*.c): a monotonic clock and a timer that keeps
 * the fastest of several runs, a small seeded generator (xorshift64, the same sequence on
 * every machine, so that the figures in doc/BENCHMARKS.md can be reproduced), exiting on a
 * library error, adding processors to a platform, and command-line options. Everything is
 * static: include it once per program. */
#ifndef DLSCHED_BENCHUTIL_H
#define DLSCHED_BENCHUTIL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dlsched.h>

/* ---------------------------------------------------------------------------------- */
/* Time */

/* An empty platform; exits when memory runs out. */
static inline dls_platform *bench_platform_new(void)
{
    dls_platform *pl = NULL;
    dls_error err;
    if (dls_platform_create(&pl, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        exit(2);
    }
    return pl;
}

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The fastest of several timed runs: bench_start before each, bench_stop after it. */
typedef struct bench_timer {
    double best; /* seconds; INFINITY before the first run */
    double start;
} bench_timer;

#define BENCH_TIMER {INFINITY, 0}

static inline void bench_start(bench_timer *t)
{
    t->start = bench_now();
}

/* Returns this run's time. */
static inline double bench_stop(bench_timer *t)
{
    double s = bench_now() - t->start;
    t->best = fmin(t->best, s);
    return s;
}

/* ---------------------------------------------------------------------------------- */
/* Random numbers: xorshift64. A program may set another default before reading --seed. */

static uint64_t bench_rng_state = 88172645463325252ull;

static inline double bench_unif(void)
{
    bench_rng_state ^= bench_rng_state << 13;
    bench_rng_state ^= bench_rng_state >> 7;
    bench_rng_state ^= bench_rng_state << 17;
    return (double)(bench_rng_state >> 11) * 0x1.0p-53;
}

/* Log-uniform in [lo, hi). */
static inline double bench_logu(double lo, double hi)
{
    return exp(log(lo) + (log(hi) - log(lo)) * bench_unif());
}

/* ---------------------------------------------------------------------------------- */
/* Library calls: a benchmark stops at the first error, with the library's message. */

static inline void bench_check(dls_status st, const dls_error *err)
{
    if (st != DLS_OK) {
        fprintf(stderr, "%s\n", err->message);
        exit(1);
    }
}

/* Adds processor `name` with model m (which it frees) and, unless S is NaN, a link with
 * startup S and rate C. */
static inline void bench_add(dls_platform *pl, const char *name, dls_model *m, double S,
                             double C)
{
    dls_error err;
    size_t i;
    dls_status st = dls_platform_add(pl, name, m, &i, &err);
    if (st == DLS_OK && !isnan(S))
        st = dls_platform_set_link(pl, i, S, C, &err);
    dls_model_free(m);
    bench_check(st, &err);
}

/* ---------------------------------------------------------------------------------- */
/* Command-line options: "--name VALUE" for each entry of a table; the words that are not
 * options go to *positional (at most one). Anything else prints the usage and exits 2. */

typedef enum {
    BENCH_FLAG,     /* int, set to 1; takes no value */
    BENCH_INT,      /* int */
    BENCH_UNSIGNED, /* unsigned */
    BENCH_SIZE,     /* size_t */
    BENCH_COUNT,    /* uint64_t, also written like 1e12 */
    BENCH_DOUBLE,   /* double */
    BENCH_SEED,     /* bench_rng_state; made odd */
    BENCH_STRING    /* const char *: the argument itself */
} bench_option_kind;

typedef struct bench_option {
    const char *name;
    bench_option_kind kind;
    void *value; /* unused for BENCH_SEED */
} bench_option;

static inline void bench_options(int argc, char **argv, const bench_option *opt, size_t nopt,
                          const char **positional, const char *usage)
{
    for (int i = 1; i < argc; i++) {
        size_t k = 0;
        while (k < nopt && strcmp(argv[i], opt[k].name) != 0)
            k++;
        if (k == nopt && positional != NULL && argv[i][0] != '-' && *positional == NULL) {
            *positional = argv[i];
            continue;
        }
        if (k == nopt || (opt[k].kind != BENCH_FLAG && i + 1 >= argc)) {
            fprintf(stderr, "usage: %s %s\n", argv[0], usage);
            exit(2);
        }
        const char *v = argv[i + (opt[k].kind != BENCH_FLAG)];
        switch (opt[k].kind) {
        case BENCH_FLAG:
            *(int *)opt[k].value = 1;
            break;
        case BENCH_INT:
            *(int *)opt[k].value = atoi(v);
            break;
        case BENCH_UNSIGNED:
            *(unsigned *)opt[k].value = (unsigned)strtoul(v, NULL, 10);
            break;
        case BENCH_SIZE:
            *(size_t *)opt[k].value = (size_t)strtoull(v, NULL, 10);
            break;
        case BENCH_COUNT:
            *(uint64_t *)opt[k].value = (uint64_t)strtod(v, NULL);
            break;
        case BENCH_DOUBLE:
            *(double *)opt[k].value = atof(v);
            break;
        case BENCH_SEED:
            bench_rng_state = strtoull(v, NULL, 0) | 1;
            break;
        case BENCH_STRING:
            *(const char **)opt[k].value = v;
            break;
        }
        i += opt[k].kind != BENCH_FLAG;
    }
}

/* A processor with two memory levels for a share of the load: in-core 3e-4 to 3e-3 s per
 * unit (set in *b1), out of core 5 to 20 times slower past a swap point near the share. */
static inline dls_model *bench_two_levels(double share, double *b1)
{
    double in_core = bench_logu(3e-4, 3e-3), b2 = in_core * bench_logu(5, 20);
    double swap = share * bench_logu(0.3, 3);
    double a[2] = {0, (in_core - b2) * swap}, b[2] = {in_core, b2};
    dls_model *mo;
    dls_error err;
    bench_check(dls_model_create_time_lines(2, a, b, &mo, &err), &err);
    *b1 = in_core;
    return mo;
}

/* A star of m processors for a load of V (the magnitudes of the notes on GLPK): two memory
 * levels (bench_two_levels()), startups 3e-4 to 3e-3 s, rates 3e-7 to 3e-6 s per unit. */
static inline dls_platform *bench_star_platform(size_t m, double V)
{
    dls_platform *pl = bench_platform_new();
    double share = V / (double)m;
    for (size_t i = 0; i < m; i++) {
        char name[32];
        snprintf(name, sizeof name, "p%zu", i);
        double b1;
        dls_model *mo = bench_two_levels(share, &b1);
        bench_add(pl, name, mo, bench_logu(3e-4, 3e-3), bench_logu(3e-7, 3e-6));
    }
    return pl;
}

#endif /* DLSCHED_BENCHUTIL_H */
