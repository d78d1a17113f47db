/* The C side of tests/bench/bench_python.py: a platform of N processors built from arrays
 * through the public API (a speed function of 4 points each) and partitioned by
 * dls_partition_solve with the default parameters, the fastest of R runs. The arrays are
 * the ones bench_python.py builds with numpy (the same formula, the same doubles):
 * speed scale s_i = 10 + 990 * frac(i * phi), points at 1e3, 1e4, 1e5, 1e6 units with
 * speeds s_i * (1, 1, 0.8, 0.3): processors that slow down past their memory.
 *
 *   bench_python_c N ELEMENTS R  ->  "build_seconds partition_seconds makespan"
 */
#include "benchutil.h"

static const double bench_sizes[4] = {1e3, 1e4, 1e5, 1e6};
static const double bench_shape[4] = {1.0, 1.0, 0.8, 0.3};

static void fail(const dls_error *err)
{
    fprintf(stderr, "bench_python_c: %s\n", err->message);
    exit(2);
}

static dls_platform *build(size_t n)
{
    const double phi = 0.6180339887498949;
    dls_platform *pl = bench_platform_new();
    dls_error err;
    char name[32];
    for (size_t i = 0; i < n; i++) {
        double x = (double)i * phi;
        double s = 10.0 + 990.0 * (x - floor(x));
        double speeds[4];
        dls_model *model = NULL;
        for (int k = 0; k < 4; k++)
            speeds[k] = s * bench_shape[k];
        snprintf(name, sizeof name, "p%zu", i);
        if (dls_model_create_points(4, bench_sizes, speeds, NULL, NULL, &model, &err) != DLS_OK ||
            dls_platform_add(pl, name, model, NULL, &err) != DLS_OK)
            fail(&err);
        dls_model_free(model);
    }
    return pl;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: bench_python_c PROCESSORS ELEMENTS REPEAT\n");
        return 2;
    }
    size_t n = (size_t)strtoull(argv[1], NULL, 10);
    uint64_t elements = strtoull(argv[2], NULL, 10);
    int repeat = atoi(argv[3]);
    bench_timer tb = BENCH_TIMER, tp = BENCH_TIMER;
    double makespan = NAN;
    for (int r = 0; r < repeat; r++) {
        dls_error err;
        dls_partition *part = NULL;
        bench_start(&tb);
        dls_platform *pl = build(n);
        bench_stop(&tb);
        bench_start(&tp);
        if (dls_partition_solve(pl, elements, NULL, &part, &err) != DLS_OK)
            fail(&err);
        bench_stop(&tp);
        makespan = dls_partition_makespan(part);
        dls_partition_free(part);
        dls_platform_free(pl);
    }
    printf("%.6f %.6f %.17g\n", tb.best, tp.best, makespan);
    return 0;
}
