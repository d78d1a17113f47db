/* platform_info: read a platform file and print each processor's speed and time at a few
 * sizes. Uses only the public API of libdlsched.
 *
 *   cc platform_info.c $(pkg-config --cflags --libs dlsched) -o platform_info
 *   ./platform_info examples/cluster.json 1e6
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <dlsched.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PLATFORM [SIZE]\n", argv[0]);
        return 2;
    }
    double x = argc > 2 ? strtod(argv[2], NULL) : 1e6;
    dls_error err;
    dls_platform *platform;
    if (dls_platform_read_file(argv[1], &platform, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    printf("libdlsched %s, %zu processors, size %g\n", dls_version(),
           dls_platform_count(platform), x);
    for (size_t i = 0; i < dls_platform_count(platform); i++) {
        const dls_model *m = dls_platform_model(platform, i);
        if (dls_model_dimension(m) == 2) {
            /* A 2-D model gives a 1-D speed once its first parameter is fixed. */
            dls_model *section;
            const double *gx;
            dls_model_get_grid(m, NULL, &gx, NULL, NULL, NULL);
            if (dls_model_section(m, gx[0], &section, &err) != DLS_OK) {
                fprintf(stderr, "%s\n", err.message);
                dls_platform_free(platform);
                return 1;
            }
            printf("%-10s 2-D; at x = %g: speed %.4g, time %.4g s\n",
                   dls_platform_name(platform, i), gx[0], dls_model_speed(section, x),
                   dls_model_time(section, x));
            dls_model_free(section);
        } else {
            printf("%-10s %-8s speed %.4g, time %.4g s\n", dls_platform_name(platform, i),
                   dls_model_kind_name(dls_model_get_kind(m)), dls_model_speed(m, x),
                   dls_model_time(m, x));
        }
    }
    dls_platform_free(platform);
    return 0;
}
