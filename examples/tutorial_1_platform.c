/* tutorial_1_platform: step 1 of doc/TUTORIAL.md. Reads a platform file and lists its
 * processors: name, kind of performance model, limit, link, and the time each would take
 * for a given size. Uses only the public API.
 *
 *   ./tutorial_1_platform examples/star_cluster.json 1e5
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <dlsched.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s PLATFORM SIZE\n", argv[0]);
        return 2;
    }
    double x = strtod(argv[2], NULL);
    dls_error err;
    dls_platform *platform;
    /* Every call that can fail returns a status and fills err with a message. */
    if (dls_platform_read_file(argv[1], &platform, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    printf("%zu processors\n", dls_platform_count(platform));
    for (size_t i = 0; i < dls_platform_count(platform); i++) {
        const dls_model *m = dls_platform_model(platform, i);
        /* Sending x units to processor i takes startup + rate * x seconds. */
        double startup, rate;
        if (dls_platform_link(platform, i, &startup, &rate) != DLS_OK) {
            fprintf(stderr, "processor %zu: no such index\n", i);
            dls_platform_free(platform);
            return 2;
        }
        /* The kinds of model: "constant" (one speed), "points" (speeds measured at some
         * sizes, linear between them), "time" (the time as the maximum of lines a + b x),
         * "speed2d" (a 2-D surface: see examples/partition_rows.c). */
        dls_model_kind kind = dls_model_get_kind(m);
        char what[64];
        snprintf(what, sizeof what, "%s, %zu %s", dls_model_kind_name(kind),
                 dls_model_count(m), kind == DLS_MODEL_TIME_LINES ? "lines" : "points");
        printf("%-8s %-16s limit %-6g  link %g s + %g s/unit  t(%g) = %.4g s\n",
               dls_platform_name(platform, i), what, dls_platform_limit(platform, i), startup,
               rate, x, dls_model_time(m, x));
    }
    dls_platform_free(platform);
    return 0;
}
