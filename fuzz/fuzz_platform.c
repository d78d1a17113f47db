/* Fuzz target: platform files. The input is the text of a platform file, read with
 * dls_platform_read_string(). A platform read is then
 *   - written and read back: the copy must equal it, and write the same text again;
 *   - partitioned: a set of equal elements (a striped matrix when a model is 2-D);
 *   - scheduled: a small load on the star LP, only with at most SCHEDULE_MAX_PROCESSORS
 *     processors, which keeps each input cheap (GLPK's work is bounded by its iteration and
 *     time limits; the inputs that stalled it before are in fuzz/regressions/platform/).
 * A file that is refused must be refused with a documented status and a message. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlsched.h"
#include "harness.h"

const char dls_fuzz_target[] = "platform";

/* Processors at most for the schedule step. */
#define SCHEDULE_MAX_PROCESSORS 8
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

/* A small load on the star LP: an optimal schedule distributes the whole load. */
static void schedule(const dls_platform *pl)
{
    if (dls_platform_count(pl) > SCHEDULE_MAX_PROCESSORS)
        return;
    dls_error err;
    dls_error_clear(&err);
    dls_schedule *s = NULL;
    dls_status st = dls_schedule_solve(pl, SCHEDULE_LOAD, NULL, &s, &err);
    if (st != DLS_OK) {
        FUZZ_CHECK(reported(st, &err));
        FUZZ_CHECK(st == DLS_EINVAL || st == DLS_ENOMEM || st == DLS_ESOLVER ||
                   st == DLS_ENUMERIC || st == DLS_ELIMIT);
        return;
    }
    FUZZ_CHECK(dls_schedule_count(s) == dls_platform_count(pl));
    if (dls_schedule_status(s) == DLS_SOLUTION_OPTIMAL) {
        const double *loads = dls_schedule_loads(s);
        double sum = 0;
        for (size_t i = 0; i < dls_schedule_count(s); i++) {
            FUZZ_CHECK(loads[i] >= 0);
            sum += loads[i];
        }
        FUZZ_CHECK(fabs(sum - SCHEDULE_LOAD) <= LOAD_TOL * SCHEDULE_LOAD);
        FUZZ_CHECK(dls_schedule_makespan(s) >= 0 && isfinite(dls_schedule_makespan(s)));
    }
    dls_schedule_free(s);
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
