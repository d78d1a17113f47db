/* lu_columns: which processor should own each column panel of a matrix factorized by
 * right-looking LU (Lastovetsky and Reddy 2007b), with Functional Reverse, and how far that is from
 * the lower bound. Uses only the public API.
 *
 *   cc lu_columns.c $(pkg-config --cflags --libs dlsched) -o lu_columns
 *   ./lu_columns examples/lu_cluster.json 500
 */
#include <stdio.h>
#include <stdlib.h>

#include <dlsched.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s PLATFORM COLUMNS\n", argv[0]);
        return 2;
    }
    unsigned long long n = strtoull(argv[2], NULL, 10);
    dls_error err;
    dls_platform *platform;
    if (dls_platform_read_file(argv[1], &platform, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    dls_lu_params params;
    dls_lu_params_init(&params);
    params.algorithm = DLS_LU_FR;
    dls_lu *lu;
    if (dls_lu_distribute(platform, n, &params, &lu, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        dls_platform_free(platform);
        return 2;
    }
    if (dls_lu_owners(lu) == NULL) { /* the limits cannot hold n columns */
        fprintf(stderr, "%s\n", dls_lu_note(lu));
        dls_lu_free(lu);
        dls_platform_free(platform);
        return 1;
    }
    for (size_t i = 0; i < dls_lu_count(lu); i++)
        printf("%-12s %8llu columns\n", dls_platform_name(platform, i),
               (unsigned long long)dls_lu_counts(lu)[i]);
    /* the first columns, where the distribution matters most */
    printf("columns 1-10:");
    for (size_t j = 0; j < 10 && j < n; j++)
        printf(" %s", dls_platform_name(platform, dls_lu_owners(lu)[j]));
    printf("\ncost %.6g s, lower bound %.6g s, %s\n", dls_lu_cost(lu), dls_lu_lower_bound(lu),
           dls_solution_status_name(dls_lu_status(lu)));
    dls_lu_free(lu);
    dls_platform_free(platform);
    return 0;
}
