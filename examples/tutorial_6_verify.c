/* tutorial_6_verify: step 6 of doc/TUTORIAL.md. dlsched as the referee: a schedule is
 * written down as a claim (loads, send times, finishes, order, makespan), checked against
 * the platform's models and measured against the optimum. The claim here is the optimal
 * schedule itself, which passes; then an even split that claims the optimal makespan,
 * which does not. Uses only the public API.
 *
 *   ./tutorial_6_verify examples/star_cluster.json 1e6
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <dlsched.h>

/* Verifies @p claim and prints the verdict; returns 0, or 2 when the call failed. */
static int referee(const dls_platform *platform, const dls_claim *claim)
{
    dls_error err;
    dls_verification *v;
    if (dls_schedule_verify(platform, claim, NULL, &v, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    dls_verify_quality q;
    if (dls_verification_get_quality(v, &q) != DLS_OK) {
        fprintf(stderr, "no quality figures\n");
        dls_verification_free(v);
        return 2;
    }
    if (dls_verification_valid(v)) {
        printf("  valid: makespan %.3f s, best %.3f s, gap %.3g%%\n", q.makespan, q.best,
               q.gap_percent);
    } else {
        printf("  invalid, violations: %zu\n", dls_verification_count(v));
        for (size_t k = 0; k < dls_verification_count(v); k++) {
            const dls_violation *x = dls_verification_violation(v, k);
            printf("  %s: %s\n", dls_violation_kind_name(x->kind), x->text);
        }
    }
    dls_verification_free(v);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s PLATFORM LOAD\n", argv[0]);
        return 2;
    }
    double load = strtod(argv[2], NULL);
    dls_error err;
    dls_platform *platform;
    if (dls_platform_read_file(argv[1], &platform, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    dls_schedule *s = NULL;
    dls_claim *good = NULL, *bad = NULL;
    int rc = 2;
    if (dls_schedule_solve(platform, load, NULL, &s, &err) != DLS_OK ||
        dls_claim_create(platform, DLS_CLAIM_SCHEDULE, &good, &err) != DLS_OK ||
        dls_claim_create(platform, DLS_CLAIM_SCHEDULE, &bad, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        goto done;
    }
    if (dls_schedule_status(s) == DLS_SOLUTION_INFEASIBLE) {
        fprintf(stderr, "%s\n", dls_schedule_note(s));
        rc = 1;
        goto done;
    }
    /* The claim of the optimal schedule: what another tool would write down. NaN: a time
     * not given (here the start of computing, taken as early as the model allows). */
    size_t p = dls_platform_count(platform);
    const double *ld = dls_schedule_loads(s), *ss = dls_schedule_send_start(s);
    const double *se = dls_schedule_send_end(s), *fin = dls_schedule_finish(s);
    double makespan = dls_schedule_makespan(s);
    for (size_t i = 0; i < p; i++) {
        /* A processor given nothing is sent nothing: no times. */
        double t0 = ld[i] > 0 ? ss[i] : NAN, t1 = ld[i] > 0 ? se[i] : NAN;
        double tf = ld[i] > 0 ? fin[i] : NAN;
        if (dls_claim_set(good, i, ld[i], t0, t1, NAN, tf, &err) != DLS_OK ||
            /* The bad claim: an even split, and the optimal makespan. */
            dls_claim_set(bad, i, load / (double)p, NAN, NAN, NAN, NAN, &err) != DLS_OK) {
            fprintf(stderr, "%s\n", err.message);
            goto done;
        }
    }
    if (dls_claim_set_order(good, dls_schedule_sequence(s), p, &err) != DLS_OK ||
        dls_claim_set_total(good, load, &err) != DLS_OK ||
        dls_claim_set_makespan(good, makespan, &err) != DLS_OK ||
        dls_claim_set_total(bad, load, &err) != DLS_OK ||
        dls_claim_set_makespan(bad, makespan, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        goto done;
    }
    printf("the optimal schedule:\n");
    if (referee(platform, good) != 0)
        goto done;
    printf("an even split claiming %.3f s:\n", makespan);
    if (referee(platform, bad) != 0)
        goto done;
    rc = 0;
done:
    dls_claim_free(good);
    dls_claim_free(bad);
    dls_schedule_free(s);
    dls_platform_free(platform);
    return rc;
}
