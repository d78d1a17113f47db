/* tutorial_5_evaluate: step 5 of doc/TUTORIAL.md. Evaluates loads chosen by hand (here an
 * even split) on the star: the timeline they give under the processors' true models, and
 * how far their makespan is from the optimal schedule's. Uses only the public API.
 *
 *   ./tutorial_5_evaluate examples/star_cluster.json 1e6
 */
#include <stdio.h>
#include <stdlib.h>

#include <dlsched.h>

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
    size_t p = dls_platform_count(platform);
    double *loads = malloc(p * sizeof *loads);
    if (loads == NULL) {
        fprintf(stderr, "out of memory\n");
        dls_platform_free(platform);
        return 2;
    }
    for (size_t i = 0; i < p; i++)
        loads[i] = load / (double)p;

    /* The timeline of the given loads, sent in the platform's order. */
    dls_schedule *even = NULL, *best = NULL;
    int rc = 0;
    if (dls_schedule_evaluate(platform, loads, NULL, &even, &err) != DLS_OK ||
        dls_schedule_solve(platform, load, NULL, &best, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        rc = 2;
    } else if (dls_schedule_status(best) == DLS_SOLUTION_INFEASIBLE) {
        fprintf(stderr, "%s\n", dls_schedule_note(best));
        rc = 1;
    } else {
        const double *finish = dls_schedule_finish(even);
        for (size_t i = 0; i < p; i++)
            printf("%-8s load %9.1f  done at %7.3f s\n", dls_platform_name(platform, i),
                   loads[i], finish[i]);
        double t = dls_schedule_makespan(even), opt = dls_schedule_makespan(best);
        printf("even split: makespan %.3f s; optimal schedule %.3f s (%.1f%% slower)\n", t, opt,
               100 * (t - opt) / opt);
    }
    dls_schedule_free(even);
    dls_schedule_free(best);
    free(loads);
    dls_platform_free(platform);
    return rc;
}
