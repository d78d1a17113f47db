/* The differential suite (tests/differential/README.md): random instances over the whole
 * input domain, biased toward the edges where defects were found, each path of dlsched
 * checked against a method independent of the code that produced it. Shared by the driver
 * (differential.c), the instances (gen.c) and the paths (paths.c, paths_more.c). */
#ifndef DLSCHED_TEST_DIFF_H
#define DLSCHED_TEST_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "dlsched.h"

/* ---------------------------------------------------------------------------------- */
/* The generator: xoshiro256** seeded by splitmix64, the same numbers on every machine */

typedef struct diff_rng {
    uint64_t s[4];
} diff_rng;

void diff_rng_init(diff_rng *r, uint64_t seed, uint64_t stream);
uint64_t diff_next(diff_rng *r);
double diff_unif(diff_rng *r);                     /* [0, 1) */
double diff_range(diff_rng *r, double lo, double hi);
double diff_log(diff_rng *r, double lo, double hi); /* log-uniform, lo > 0 */
uint64_t diff_below(diff_rng *r, uint64_t n);      /* [0, n) */
int diff_chance(diff_rng *r, double p);            /* 1 with probability p */

/* ---------------------------------------------------------------------------------- */
/* A case: what is checked, and where a failure is told */

typedef struct diff_case {
    uint64_t seed, index;
    const char *path;          /* the path's name */
    const char *out_dir;       /* where failing instances are written */
    int verbose;
    int dump;                  /* write the instance whatever the outcome */
    /* the instance, for the failure's files (set by the path before it checks) */
    const dls_platform *platform;
    double load;
    char what[256];            /* the options of the instance, one line */
    int failures;              /* checks failed in this case */
    int skipped;               /* 1: the path could not check (said in why) */
    char why[256];
} diff_case;

/* A failed check: says the seed, the case and what, writes the instance (once a case). */
/* The instance of the case into its files (diff-SEED-CASE.json and .txt), with a line. */
void diff_write_instance(diff_case *c, const char *message);
/* The end of a path: with --dump the instance written, then the platform freed. */
void diff_done(diff_case *c, dls_platform *pl);
void diff_fail(diff_case *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The case checks nothing, for a reason (counted, printed with --verbose). */
void diff_skip(diff_case *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Whether a and b agree within rel (relative to the larger), INFINITY equal to itself. */
int diff_close(double a, double b, double rel);

/* ---------------------------------------------------------------------------------- */
/* Instances (gen.c)                                                                   */

/* What a random platform may hold. */
typedef struct diff_shape {
    size_t m;                  /* processors */
    double load;               /* V, which the magnitudes are drawn around */
    int points;                /* 1: speed models with measured points may appear */
    int links;                 /* 1: links may appear */
    int limits;                /* 1: limits may appear (also summing to V within 1e-12) */
    int intercepts;            /* 1: time lines with a positive intercept may appear */
    int constant_only;         /* 1: constant speeds only */
} diff_shape;

/* A random platform of the shape (drawn from r), its description appended to what. */
dls_platform *diff_platform(diff_rng *r, const diff_shape *sh, char *what, size_t size);
/* The case's instance: diff_platform's platform (NULL where it could not be built), described
 * in c->what and kept in c with its load for the failure's files. */
dls_platform *diff_case_platform(diff_rng *r, const diff_shape *sh, diff_case *c);
/* A load over the whole domain, biased toward its ends: 1 .. 1e12. */
double diff_load(diff_rng *r);
/* A count of processors: 1 often, 2 .. 12 mostly, up to max. */
size_t diff_count(diff_rng *r, size_t max);

/* The timeline of loads x (platform order) served in the order seq (all processors, in
 * send order), written here from the platform format's definition: each processor sent a
 * load receives it after the earlier sends (startup + rate x), then computes it in
 * model_time(x) seconds (the true model); with charge_all, a processor sent nothing still
 * takes its startup and its time at size 0+ (the paper's model, time lines only).
 * Returns the makespan. */
double diff_replay(const dls_platform *pl, const size_t *seq, const double *x, int charge_all);
/* A model's time at size 0+, which the paper's model charges a processor sent nothing: the
 * largest intercept of time lines, 0 for speed models. */
double diff_least_time(const dls_model *m);

/* The makespan of x through the lines of each processor's envelope as the star sees it is
 * not needed: the paths compare true timelines, and use time lines and constants where
 * the solvers' lines must be the true ones. */

/* ---------------------------------------------------------------------------------- */
/* The paths (paths.c, paths_more.c): each draws its instance from r and checks it       */

typedef void (*diff_path_fn)(diff_rng *r, diff_case *c);

void diff_path_chain_glpk(diff_rng *r, diff_case *c);
void diff_path_selection(diff_rng *r, diff_case *c);
void diff_path_integer(diff_rng *r, diff_case *c);
void diff_path_verify(diff_rng *r, diff_case *c);
void diff_path_export(diff_rng *r, diff_case *c);
void diff_path_installments(diff_rng *r, diff_case *c);
void diff_path_evaluate(diff_rng *r, diff_case *c);
void diff_path_bench(diff_rng *r, diff_case *c);
void diff_path_scale(diff_rng *r, diff_case *c);

/* glpsol, as configure found it ("" when none), and the source tree (lp/star.mod). */
extern const char *diff_glpsol;
extern const char *diff_top_srcdir;

#endif /* DLSCHED_TEST_DIFF_H */
