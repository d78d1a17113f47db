/* Tutorial step 8: balance an iterative application while it runs, from the times of its
 * own iterations (doc/TUTORIAL.md).
 *
 * The "application" here is simulated so that the output is the same everywhere: each
 * iteration, processor i takes the time its model in PLATFORM gives for its share, give or
 * take 1% (a fixed pattern standing for the noise of real timings). The balancer is never
 * shown the models: only the times, as a real program would measure them around its
 * compute phase.
 *
 * Usage: tutorial_8_balance PLATFORM ELEMENTS [ITERATIONS] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <dlsched.h>

/* The measured time of processor i at iteration k: its true time, give or take 1%. */
static double measure(const dls_platform *platform, size_t i, uint64_t share, int k)
{
    if (share == 0)
        return 0;
    double wobble = 0.01 * sin(1.7 * (double)i + 2.3 * (double)k);
    return dls_model_time(dls_platform_model(platform, i), (double)share) * (1 + wobble);
}

/* The best makespan, from the true models: what the balancer should approach. */
static double optimum(const dls_platform *platform, uint64_t n, dls_error *err)
{
    dls_partition *best = NULL;
    if (dls_partition_solve(platform, n, NULL, &best, err) != DLS_OK)
        return NAN;
    double makespan = 0;
    const double *t = dls_partition_times(best);
    for (size_t i = 0; i < dls_partition_count(best); i++)
        makespan = fmax(makespan, t[i]);
    dls_partition_free(best);
    return makespan;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s PLATFORM ELEMENTS [ITERATIONS]\n", argv[0]);
        return 2;
    }
    uint64_t n = strtoull(argv[2], NULL, 10);
    int iterations = argc > 3 ? atoi(argv[3]) : 10;
    dls_error err;
    dls_platform *platform = NULL;
    dls_balance *balance = NULL;
    double *limits = NULL, *times = NULL;
    int rc = 2;
    if (dls_platform_read_file(argv[1], &platform, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    size_t p = dls_platform_count(platform);
    limits = malloc(p * sizeof *limits);
    times = malloc(p * sizeof *times);
    if (limits == NULL || times == NULL) {
        fprintf(stderr, "out of memory\n");
        goto done;
    }

    /* The balancer knows the processors' limits (the memory they have), not their speeds:
     * it starts from the even split. Timings vary by about 1%. */
    for (size_t i = 0; i < p; i++)
        limits[i] = dls_platform_limit(platform, i);
    dls_balance_params params;
    dls_balance_params_init(&params);
    params.limits = limits;
    params.noise = 0.01;
    if (dls_balance_create(p, n, &params, &balance, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        goto done;
    }
    double best = optimum(platform, n, &err);
    if (isnan(best)) {
        fprintf(stderr, "%s\n", err.message);
        goto done;
    }
    printf("optimum %.3f s (from the true models)\n", best);

    for (int k = 0; k < iterations; k++) {
        /* run the iteration with the shares the balancer gave, and time each processor */
        const uint64_t *share = dls_balance_shares(balance);
        double makespan = 0;
        for (size_t i = 0; i < p; i++) {
            times[i] = measure(platform, i, share[i], k);
            makespan = fmax(makespan, times[i]);
        }
        printf("iteration %2d: makespan %8.3f s (%+6.1f%%)", k + 1, makespan,
               100 * (makespan / best - 1));
        /* then give the times to the balancer: the next shares, and what moves */
        dls_balance_info info;
        if (dls_balance_step(balance, p, NULL, times, &err) != DLS_OK ||
            dls_balance_get_info(balance, &info, &err) != DLS_OK) {
            fprintf(stderr, "\n%s\n", err.message);
            goto done;
        }
        printf("  next: %s, %llu elements move%s\n", info.changed ? "new shares" : "kept",
               (unsigned long long)info.moved, info.converged ? ", converged" : "");
    }
    const uint64_t *share = dls_balance_shares(balance);
    for (size_t i = 0; i < p; i++)
        printf("%-8s %8llu elements\n", dls_platform_name(platform, i),
               (unsigned long long)share[i]);
    rc = 0;
done:
    dls_balance_free(balance);
    dls_platform_free(platform);
    free(limits);
    free(times);
    return rc;
}
