/* tutorial_7_measure: step 7 of doc/TUTORIAL.md. Builds a speed model by measurement:
 * the program's own code (here: summing x doubles) becomes a kernel, dls_bench_build()
 * times it at sizes it chooses until the model is good enough or the small budget given
 * here runs out, and the model becomes a processor of a platform written as a platform
 * file (the input of step 1). The timings, hence the output, vary from run to run. Uses
 * only the public API.
 *
 *   ./tutorial_7_measure measured.json
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <dlsched.h>

#define MAX_SIZE 1000000

/* What the kernel works on. */
struct sum_data {
    double *a;     /* MAX_SIZE numbers */
    double total;  /* the sums, kept so that the compiler cannot drop the loop */
};

/* The kernel: sums the first @p size numbers; returns the seconds it took and sets *work
 * to the units done (the speed is work / time: elements per second). */
static double sum_run(double size, double *work, void *data)
{
    struct sum_data *d = data;
    const double *a = d->a;
    size_t n = (size_t)size;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    double s = 0;
    for (size_t k = 0; k < n; k++)
        s += a[k];
    clock_gettime(CLOCK_MONOTONIC, &t1);
    d->total += s;
    *work = size;
    return (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
}

int main(int argc, char **argv)
{
    struct sum_data d = {.a = malloc(MAX_SIZE * sizeof(double)), .total = 0};
    if (d.a == NULL) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    for (size_t k = 0; k < MAX_SIZE; k++)
        d.a[k] = 1.0 / (double)(k + 1);
    dls_kernel kernel = {.name = "sum", .run = sum_run, .data = &d, .integer_sizes = 1};

    /* A short measurement: sizes 10^4 to 10^6, 10% precision, at most 8 points, 2 s. */
    dls_bench_params params;
    dls_bench_params_init(&params);
    params.min_size = 1e4;
    params.max_size = MAX_SIZE;
    params.precision = 0.1;
    params.max_reps = 10;
    params.size_time_cap = 0.2;
    params.max_points = 8;
    params.time_budget = 2;

    dls_error err;
    dls_bench *bench = NULL;
    dls_platform *platform = NULL;
    char *json = NULL;
    int rc = 2;
    if (dls_bench_build(&kernel, &params, &bench, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        goto done;
    }
    size_t count;
    const dls_bench_point *pt = dls_bench_points(bench, &count);
    for (size_t k = 0; k < count; k++)
        printf("size %8.0f  speed %.3g elements/s  [%.3g, %.3g]  %u runs\n", pt[k].size,
               pt[k].speed, pt[k].low, pt[k].high, pt[k].reps);
    const dls_model *model = dls_bench_model(bench);
    printf("%zu points measured, %zu kept in the model; stopped: %s\n", count,
           dls_model_count(model), dls_bench_stop_name(dls_bench_stopped(bench)));

    /* The model as a processor of a platform, limited to the sizes measured, behind a
     * link of 1 ms + 10 ns per element. */
    size_t i;
    if (dls_platform_create(&platform, &err) != DLS_OK ||
        dls_platform_add(platform, "this-machine", model, &i, &err) != DLS_OK ||
        dls_platform_set_limit(platform, i, dls_bench_limit(bench), &err) != DLS_OK ||
        dls_platform_set_link(platform, i, 1e-3, 1e-8, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        goto done;
    }
    if (argc > 1) {
        if (dls_platform_write_file(platform, argv[1], &err) != DLS_OK) {
            fprintf(stderr, "%s\n", err.message);
            goto done;
        }
        printf("platform written to %s\n", argv[1]);
    } else {
        if (dls_platform_to_string(platform, &json, &err) != DLS_OK) {
            fprintf(stderr, "%s\n", err.message);
            goto done;
        }
        fputs(json, stdout);
    }
    rc = 0;
done:
    dls_free(json);
    dls_platform_free(platform);
    dls_bench_free(bench);
    free(d.a);
    return rc;
}
