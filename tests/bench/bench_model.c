/* Benchmark of model building on this machine (issue: a gemm-rows model built within a
 * 60-second budget predicts at least 90% of 20 separately measured held-out sizes within its
 * band, with fewer points than a uniform grid that does as well).
 *
 * 1. build the gemm-rows speed function (n = 1024, 8 to 4096 rows) adaptively, budget 60 s;
 * 2. measure 20 held-out sizes, log-uniform at random (fixed seed), with the same statistics;
 *    a prediction counts when the held-out speed lies within the model's band there;
 * 3. measure a uniform grid of 33 sizes (equally spaced; and, for reference, one equally
 *    spaced in log(size)), with as many passes as the build; their sub-grids of 2, 3, 5, 9, 17
 *    and 33 points give uniform models, scored on the same held-out points: the smallest that
 *    scores as well as the adaptive model is the comparison.
 *
 * usage: bench_model [--n N] [--max-size ROWS] [--budget SEC] [--seed S] [--threads T]
 *                    [--passes P]
 */
#include "benchutil.h"

/* Whether the held-out speed lies within the model's band there: the band of the model's
 * points, interpolated like its speed. A model without bands (the uniform grids) gets the
 * band of the measurements it was built from. */
static double interp(size_t n, const double *x, const double *v, double at)
{
    if (at <= x[0])
        return v[0];
    for (size_t i = 0; i + 1 < n; i++)
        if (at <= x[i + 1])
            return v[i] + (v[i + 1] - v[i]) * (at - x[i]) / (x[i + 1] - x[i]);
    return v[n - 1];
}

static int inside(const dls_model *m, const dls_bench_point *p, double precision)
{
    size_t n;
    const double *x, *lo, *hi;
    (void)precision;
    dls_model_get_points(m, &n, &x, NULL, &lo, &hi);
    return p->speed >= interp(n, x, lo, p->size) && p->speed <= interp(n, x, hi, p->size);
}

static int score(const dls_model *m, const dls_bench_point *held, size_t n, double precision)
{
    int hits = 0;
    for (size_t i = 0; i < n; i++)
        hits += inside(m, &held[i], precision);
    return hits;
}

/* The held-out sizes and the uniform grids they are compared on. */
enum { HELD = 20, GRID = 33 };

/* One kind of uniform grid (0: equally spaced in size, the literal uniform grid; 1: in
 * log(size), a smarter fixed choice), measured with as many passes as the adaptive build,
 * bands merged the same way, then cut to 2, 3, 5, ... 33 points and scored on the held-out
 * sizes. Returns the fewest points that do as well as the adaptive model's hits, 0 if
 * none does. */
static size_t try_grids(int kind, const dls_kernel *k, const dls_bench_params *hp,
                        double max_size, unsigned passes, const dls_bench_point *held, int hits,
                        const dls_model *model)
{
    dls_error err;
    double sizes[GRID];
    dls_bench_point grid[GRID];
    size_t needed = 0;
    for (int i = 0; i < GRID; i++)
        sizes[i] = kind == 0 ? floor(hp->min_size + (max_size - hp->min_size) * i / (GRID - 1.0))
                             : floor(hp->min_size * pow(max_size / hp->min_size, i / (GRID - 1.0)));
    for (unsigned pass = 0; pass < passes; pass++) {
        dls_bench_point more[GRID];
        bench_check(dls_bench_measure(k, hp, sizes, GRID, pass ? more : grid, &err), &err);
        for (int i = 0; pass && i < GRID; i++) {
            grid[i].low = fmin(grid[i].low, more[i].low);
            grid[i].high = fmax(grid[i].high, more[i].high);
            grid[i].speed = (grid[i].speed * pass + more[i].speed) / (pass + 1);
        }
    }
    printf("%s grids:", kind == 0 ? "uniform" : "log-uniform");
    for (size_t pts = 2; pts <= GRID; pts = 2 * pts - 1) {
        size_t step = (GRID - 1) / (pts - 1);
        double x[GRID], s[GRID], lo[GRID], hi[GRID];
        for (size_t j = 0; j < pts; j++) {
            x[j] = grid[j * step].size;
            s[j] = grid[j * step].speed;
            lo[j] = grid[j * step].low;
            hi[j] = grid[j * step].high;
        }
        dls_model *u;
        bench_check(dls_model_create_points(pts, x, s, lo, hi, &u, &err), &err);
        int h = score(u, held, HELD, hp->precision);
        printf(" %zu points %d/%d;", pts, h, HELD);
        dls_model_free(u);
        if (needed == 0 && h >= hits)
            needed = pts;
    }
    printf("\n");
    if (needed)
        printf("  a %s grid needs %zu points to do as well; the adaptive model keeps %zu\n",
               kind == 0 ? "uniform" : "log-uniform", needed, dls_model_count(model));
    else
        printf("  no %s grid of up to %d points does as well as the adaptive model (%zu)\n",
               kind == 0 ? "uniform" : "log-uniform", GRID, dls_model_count(model));
    return needed;
}

int main(int argc, char **argv)
{
    double n = 1024, max_size = 4096, budget = 60;
    unsigned threads = 1; /* one process per core, as in the papers; see doc/BENCHMARKS.md */
    unsigned passes = 3;  /* the band across time, not only across consecutive runs */
    bench_rng_state = 0x2545F4914F6CDD1Dull;
    const bench_option opt[] = {
        {"--n", BENCH_DOUBLE, &n},           {"--max-size", BENCH_DOUBLE, &max_size},
        {"--budget", BENCH_DOUBLE, &budget}, {"--seed", BENCH_SEED, NULL},
        {"--threads", BENCH_UNSIGNED, &threads}, {"--passes", BENCH_UNSIGNED, &passes}};
    bench_options(argc, argv, opt, 6, NULL,
                  "[--n N] [--max-size ROWS] [--budget SEC] [--seed S] [--threads T] [--passes P]");
    dls_error err;
    dls_blas_kernel_params bp;
    dls_blas_kernel_params_init(&bp);
    bp.fixed = n;
    bp.threads = threads;
    dls_kernel k;
    bench_check(dls_blas_kernel_create(DLS_KERNEL_GEMM_ROWS, &bp, &k, &err), &err);
    dls_bench_params par;
    dls_bench_params_init(&par);
    par.min_size = 8;
    par.max_size = max_size;
    par.time_budget = budget;
    par.size_time_cap = 4;
    par.passes = passes;
    dls_bench *b;
    bench_check(dls_bench_build(&k, &par, &b, &err), &err);
    const dls_model *model = dls_bench_model(b);
    size_t measured;
    dls_bench_points(b, &measured);
    printf("# gemm-rows, n = %.0f, sizes 8 to %.0f rows, budget %.0f s, %u OpenBLAS thread%s\n", n,
           max_size, budget, threads, threads == 1 ? "" : "s");
    printf("adaptive build: %.1f s, %u passes, %zu sizes measured, %zu points kept (%s)\n",
           dls_bench_elapsed(b), passes, measured, dls_model_count(model),
           dls_bench_stop_name(dls_bench_stopped(b)));

    /* held-out sizes */
    double sizes[HELD];
    dls_bench_point held[HELD];
    for (int i = 0; i < HELD; i++)
        sizes[i] = floor(par.min_size * pow(max_size / par.min_size, bench_unif()));
    dls_bench_params hp = par;
    hp.time_budget = 0;
    bench_check(dls_bench_measure(&k, &hp, sizes, HELD, held, &err), &err);
    int hits = score(model, held, HELD, par.precision);
    if (getenv("BENCH_VERBOSE"))
        for (int i = 0; i < HELD; i++) {
            size_t np;
            const double *xs, *ss, *lo, *hi;
            dls_model_get_points(model, &np, &xs, &ss, &lo, &hi);
            printf("  held %6.0f: speed %.4g [%.4g, %.4g] model %.4g %s\n", held[i].size,
                   held[i].speed, held[i].low, held[i].high, dls_model_speed(model, held[i].size),
                   inside(model, &held[i], par.precision) ? "" : "MISS");
        }
    printf("held-out sizes predicted within their band: %d of %d (%.0f%%; goal >= 90%%)\n", hits,
           HELD, 100.0 * hits / HELD);

    /* uniform grids, equally spaced in size and in log(size) */
    size_t needed[2] = {0, 0};
    for (int kind = 0; kind < 2; kind++)
        needed[kind] = try_grids(kind, &k, &hp, max_size, passes, held, hits, model);
    int ok = hits >= 0.9 * HELD && (needed[0] == 0 || dls_model_count(model) < needed[0]);
    printf("goals: %s\n", ok ? "met" : "MISSED");
    dls_bench_free(b);
    dls_kernel_free(&k);
    return ok ? 0 : 1;
}
