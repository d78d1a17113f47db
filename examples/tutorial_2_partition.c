/* tutorial_2_partition: step 2 of doc/TUTORIAL.md. Partitions N equal elements over the
 * processors so that all finish together (Lastovetsky and Reddy 2007a): each processor's share, its
 * time, the makespan and the lower bound it is measured against. Uses only the public API.
 *
 *   ./tutorial_2_partition examples/star_cluster.json 1000000
 */
#include <stdio.h>
#include <stdlib.h>

#include <dlsched.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s PLATFORM N\n", argv[0]);
        return 2;
    }
    uint64_t n = strtoull(argv[2], NULL, 10);
    dls_error err;
    dls_platform *platform;
    if (dls_platform_read_file(argv[1], &platform, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    /* NULL parameters: the defaults (Newton's method, limits respected). */
    dls_partition *result;
    if (dls_partition_solve(platform, n, NULL, &result, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        dls_platform_free(platform);
        return 2;
    }
    int rc = 0;
    /* The call worked; whether a distribution exists is the result's own status. */
    if (dls_partition_status(result) == DLS_SOLUTION_INFEASIBLE) {
        fprintf(stderr, "%s\n", dls_partition_note(result));
        rc = 1;
    } else {
        const uint64_t *elements = dls_partition_elements(result);
        const double *times = dls_partition_times(result);
        for (size_t i = 0; i < dls_partition_count(result); i++)
            printf("%-8s %8llu elements  %8.3f s\n", dls_platform_name(platform, i),
                   (unsigned long long)elements[i], times[i]);
        printf("makespan %.3f s, lower bound %.3f s (%s)\n", dls_partition_makespan(result),
               dls_partition_lower_bound(result),
               dls_solution_status_name(dls_partition_status(result)));
    }
    dls_partition_free(result);
    dls_platform_free(platform);
    return rc;
}
