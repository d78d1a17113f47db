/* tutorial_4_lp: step 4 of doc/TUTORIAL.md. Exports the paper's linear programme for a
 * load, for another solver or for people: as text in CPLEX LP format on standard output,
 * and, given a file name, as free MPS in that file. Uses only the public API.
 *
 *   ./tutorial_4_lp examples/star_cluster.json 1e6 star.mps
 *   glpsol --freemps star.mps -o star.sol
 */
#include <stdio.h>
#include <stdlib.h>

#include <dlsched.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s PLATFORM LOAD [FILE.mps]\n", argv[0]);
        return 2;
    }
    double load = strtod(argv[2], NULL);
    dls_error err;
    dls_platform *platform;
    if (dls_platform_read_file(argv[1], &platform, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    int rc = 0;
    /* The text, to release with dls_free(). */
    char *text;
    if (dls_schedule_lp_to_string(platform, load, NULL, DLS_EXPORT_LP, &text, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        rc = 2;
    } else {
        fputs(text, stdout);
        dls_free(text);
    }
    /* The same programme written to a file (replaced atomically). */
    if (rc == 0 && argc > 3 &&
        dls_schedule_lp_write_file(platform, load, NULL, DLS_EXPORT_MPS, argv[3], &err) !=
            DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        rc = 2;
    }
    dls_platform_free(platform);
    return rc;
}
