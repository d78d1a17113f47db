/* Fuzz target: platform files. The input is the text of a platform file, read with
 * dls_platform_read_string(). A platform read is then
 *   - written and read back: the copy must equal it, and write the same text again;
 *   - partitioned: a set of equal elements (a striped matrix when a model is 2-D);
 *   - scheduled: a small load by the chain solver (selection and the paper's LP, whose
 *     curve T(V) must end at its makespan) with at most CHAIN_MAX_PROCESSORS processors, and
 *     by GLPK with at most SCHEDULE_MAX_PROCESSORS, which keeps each input cheap (GLPK's
 *     work is bounded by its iteration and time limits; the inputs that stalled it before
 *     are in fuzz/regressions/platform/).
 * A file that is refused must be refused with a documented status and a message. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlsched.h"
#include "harness.h"

const char dls_fuzz_target[] = "platform";

/* Processors at most for the schedule step: GLPK's, and the chain's (cheaper). */
#define SCHEDULE_MAX_PROCESSORS 8
#define CHAIN_MAX_PROCESSORS 64
/* The chain's curve runs from the load divided by this to the load; its end agrees with
 * the schedule's makespan to CURVE_TOL (relative). */
#define CURVE_RANGE 10.0
#define CURVE_TOL 1e-9
/* The load scheduled, and the elements and matrix rows partitioned: small, so that an input
 * costs milliseconds. */
#define SCHEDULE_LOAD 100.0
#define PARTITION_ELEMENTS 1000
#define STRIPED_ROWS 64
/* Relative tolerance on the load a schedule distributes (the library checks to 1e-9). */
#define LOAD_TOL 1e-6

/* Whether a failed call reported itself as the library promises: a message, and the status
 * in the error record. */
static int reported(dls_status st, const dls_error *err)
{
    return err->status == st && err->message[0] != '\0';
}

/* Written and read back, a platform is itself, and writes the same text. */
static void round_trip(const dls_platform *pl)
{
    dls_error err;
    dls_error_clear(&err);
    char *text = NULL;
    dls_status st = dls_platform_to_string(pl, &text, &err);
    if (st == DLS_ENOMEM)
        return;
    FUZZ_CHECK(st == DLS_OK);
    dls_platform *back = NULL;
    st = dls_platform_read_string(text, strlen(text), "written.json", &back, &err);
    if (st != DLS_ENOMEM) {
        if (st != DLS_OK)
            fprintf(stderr, "round trip: %s\n", err.message);
        FUZZ_CHECK(st == DLS_OK);
        FUZZ_CHECK(dls_platform_equal(pl, back));
        char *again = NULL;
        if (dls_platform_to_string(back, &again, &err) == DLS_OK)
            FUZZ_CHECK(strcmp(text, again) == 0);
        dls_free(again);
    }
    dls_platform_free(back);
    dls_free(text);
}

static int has_2d_model(const dls_platform *pl)
{
    for (size_t i = 0; i < dls_platform_count(pl); i++)
        if (dls_model_dimension(dls_platform_model(pl, i)) != 1)
            return 1;
    return 0;
}

/* Equal elements (or the rows of a matrix product when a model is 2-D): a valid answer
 * gives every element to one processor. */
static void partition(const dls_platform *pl)
{
    dls_error err;
    dls_error_clear(&err);
    dls_partition *r = NULL;
    int striped = has_2d_model(pl);
    uint64_t n = striped ? STRIPED_ROWS : PARTITION_ELEMENTS;
    dls_status st = striped ? dls_partition_solve_matrix(pl, n, NULL, &r, &err)
                            : dls_partition_solve(pl, n, NULL, &r, &err);
    if (st != DLS_OK) {
        FUZZ_CHECK(reported(st, &err));
        FUZZ_CHECK(st == DLS_EINVAL || st == DLS_ENOMEM || st == DLS_ENUMERIC ||
                   st == DLS_ELIMIT);
        return;
    }
    FUZZ_CHECK(dls_partition_count(r) == dls_platform_count(pl));
    FUZZ_CHECK(dls_partition_total(r) == n);
    dls_solution_status sol = dls_partition_status(r);
    if (sol == DLS_SOLUTION_OPTIMAL || sol == DLS_SOLUTION_FEASIBLE) {
        const uint64_t *el = dls_partition_elements(r);
        uint64_t sum = 0;
        for (size_t i = 0; i < dls_partition_count(r); i++)
            sum += el[i];
        FUZZ_CHECK(sum == n);
    }
    dls_partition_free(r);
}

/* One schedule of the small load, or NULL when the call failed as documented. */
static dls_schedule *solve_with(const dls_platform *pl, dls_star_solver solver, int drop_unused)
{
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.solver = solver;
    par.drop_unused = drop_unused;
    dls_error err;
    dls_error_clear(&err);
    dls_schedule *s = NULL;
    dls_status st = dls_schedule_solve(pl, SCHEDULE_LOAD, &par, &s, &err);
    if (st != DLS_OK) {
        FUZZ_CHECK(s == NULL);
        FUZZ_CHECK(reported(st, &err));
        FUZZ_CHECK(st == DLS_EINVAL || st == DLS_ENOMEM || st == DLS_ESOLVER ||
                   st == DLS_ENUMERIC || st == DLS_ELIMIT || st == DLS_ERANGE);
        return NULL;
    }
    FUZZ_CHECK(dls_schedule_count(s) == dls_platform_count(pl));
    if (dls_schedule_status(s) != DLS_SOLUTION_INFEASIBLE) {
        const double *loads = dls_schedule_loads(s);
        double sum = 0;
        for (size_t i = 0; i < dls_schedule_count(s); i++) {
            FUZZ_CHECK(loads[i] >= 0);
            sum += loads[i];
        }
        FUZZ_CHECK(fabs(sum - SCHEDULE_LOAD) <= LOAD_TOL * SCHEDULE_LOAD);
        FUZZ_CHECK(dls_schedule_makespan(s) >= 0 && isfinite(dls_schedule_makespan(s)));
    }
    return s;
}

/* A small load on the star: the chain's selection and paper's LP (never longer with
 * selection), GLPK's on small platforms, and the chain's curve up to the load. */
static void schedule(const dls_platform *pl)
{
    size_t n = dls_platform_count(pl);
    if (n > CHAIN_MAX_PROCESSORS)
        return;
    dls_schedule *sel = solve_with(pl, DLS_SOLVER_CHAIN, 1);
    dls_schedule *paper = solve_with(pl, DLS_SOLVER_CHAIN, 0);
    if (sel && paper && dls_schedule_status(paper) == DLS_SOLUTION_OPTIMAL)
        FUZZ_CHECK(dls_schedule_makespan(sel) <=
                   dls_schedule_makespan(paper) * (1 + LOAD_TOL));
    if (paper && dls_schedule_status(paper) == DLS_SOLUTION_OPTIMAL) {
        dls_schedule_params par;
        dls_schedule_params_init(&par);
        par.drop_unused = 0;
        dls_error err;
        dls_error_clear(&err);
        dls_curve *c = NULL;
        dls_status st = dls_schedule_curve(pl, SCHEDULE_LOAD / CURVE_RANGE, SCHEDULE_LOAD, &par,
                                           &c, &err);
        if (st == DLS_OK) {
            size_t k = dls_curve_count(c);
            double top = dls_curve_makespans(c)[k - 1], mk = dls_schedule_makespan(paper);
            FUZZ_CHECK(k >= 2 && fabs(top - mk) <= CURVE_TOL * mk);
            dls_curve_free(c);
        } else {
            FUZZ_CHECK(c == NULL && reported(st, &err));
            FUZZ_CHECK(st == DLS_ENOMEM || st == DLS_ELIMIT || st == DLS_ERANGE ||
                       st == DLS_ENUMERIC);
        }
    }
    dls_schedule_free(sel);
    dls_schedule_free(paper);
    if (n <= SCHEDULE_MAX_PROCESSORS)
        dls_schedule_free(solve_with(pl, DLS_SOLVER_GLPK, 1));
}

int dls_fuzz_one(const uint8_t *data, size_t size)
{
    dls_error err;
    dls_error_clear(&err);
    dls_platform *pl = NULL;
    dls_status st = dls_platform_read_string((const char *)data, size, "fuzz.json", &pl, &err);
    if (st != DLS_OK) {
        FUZZ_CHECK(pl == NULL);
        FUZZ_CHECK(reported(st, &err));
        FUZZ_CHECK(st == DLS_ESYNTAX || st == DLS_EDATA || st == DLS_ENOMEM ||
                   st == DLS_ELIMIT);
        return 0;
    }
    round_trip(pl);
    partition(pl);
    schedule(pl);
    dls_platform_free(pl);
    return 0;
}
