/* partition_rows: how many rows of an N x N matrix product each processor should compute,
 * from their 2-D speed surfaces (Lastovetsky and Reddy 2007a, section 3.2). Uses only the public
 * API.
 *
 *   cc partition_rows.c $(pkg-config --cflags --libs dlsched) -o partition_rows
 *   ./partition_rows examples/striped_mm.json 6000
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
    unsigned long long n = strtoull(argv[2], NULL, 10);
    dls_error err;
    dls_platform *platform;
    if (dls_platform_read_file(argv[1], &platform, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    dls_partition *result;
    if (dls_partition_solve_matrix(platform, n, NULL, &result, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        dls_platform_free(platform);
        return 2;
    }
    int rc = 0;
    if (dls_partition_status(result) == DLS_SOLUTION_INFEASIBLE) {
        fprintf(stderr, "%s\n", dls_partition_note(result));
        rc = 1;
    } else {
        const uint64_t *rows = dls_partition_elements(result);
        const double *times = dls_partition_times(result);
        for (size_t i = 0; i < dls_partition_count(result); i++)
            printf("%-8s %8llu rows  %10.3f s\n", dls_platform_name(platform, i),
                   (unsigned long long)rows[i], times[i]);
        printf("makespan %.3f s (lower bound %.3f s, %s)\n", dls_partition_makespan(result),
               dls_partition_lower_bound(result),
               dls_solution_status_name(dls_partition_status(result)));
    }
    dls_partition_free(result);
    dls_platform_free(platform);
    return rc;
}
