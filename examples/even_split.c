/* even_split: the simplest scheduler there is, an even split of the load over every
 * processor, written the way any tool can write a plan for `dlsched verify` and
 * `dlsched validate` to check: a CSV table, one row per processor in send order. Uses only
 * the public API (to read the platform's processor names).
 *
 *   cc even_split.c $(pkg-config --cflags --libs dlsched) -o even_split
 *   ./even_split examples/star_cluster.json 1e6 plan.csv            # name,load
 *   ./even_split examples/striped_mm.json 300 plan.csv matrix       # name,elements
 *   dlsched validate --scheduler './even_split {platform} {load} {output} {kind}'
 *
 * KIND is schedule (default: loads, any real numbers), partition, matrix or weighted
 * (whole elements or rows: the remainder goes one each to the first processors). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlsched.h>

/* A name as a CSV field: quoted, its quotes doubled (names may hold commas and quotes). */
static void put_name(FILE *f, const char *name)
{
    fputc('"', f);
    for (const char *p = name; *p; p++) {
        if (*p == '"')
            fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 5) {
        fprintf(stderr, "usage: %s PLATFORM LOAD OUTPUT [schedule|partition|matrix|weighted]\n",
                argv[0]);
        return 2;
    }
    const char *kind = argc == 5 ? argv[4] : "schedule";
    int whole = strcmp(kind, "schedule") != 0;
    char *end;
    double load = strtod(argv[2], &end);
    if (*end != '\0' || !(load > 0) || !isfinite(load) || (whole && load != floor(load))) {
        fprintf(stderr, "%s: the load must be a number > 0 (whole for %s): %s\n", argv[0],
                kind, argv[2]);
        return 2;
    }
    dls_error err;
    dls_platform *platform;
    if (dls_platform_read_file(argv[1], &platform, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    FILE *out = strcmp(argv[3], "-") == 0 ? stdout : fopen(argv[3], "w");
    if (out == NULL) {
        perror(argv[3]);
        dls_platform_free(platform);
        return 1;
    }
    size_t n = dls_platform_count(platform);
    fprintf(out, "name,%s\n", whole ? "elements" : "load");
    double each = whole ? floor(load / (double)n) : load / (double)n;
    double rest = whole ? load - each * (double)n : 0;
    for (size_t i = 0; i < n; i++) {
        put_name(out, dls_platform_name(platform, i));
        if (whole)
            fprintf(out, ",%.0f\n", each + ((double)i < rest ? 1 : 0));
        else
            fprintf(out, ",%.17g\n", each);
    }
    int rc = ferror(out) ? 1 : 0;
    if (out != stdout && fclose(out) != 0)
        rc = 1;
    dls_platform_free(platform);
    return rc;
}
