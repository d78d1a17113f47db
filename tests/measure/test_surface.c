/* Tests of 2-D speed functions by measurement (dls_bench_build_surface): every rejected argument
 * or parameter, named in the message, with nothing created or called; a surface of
 * simulated rows whose speeds are known, against the truth and against the 1-D build of its
 * middle row; the rows' order and callbacks; resumption; cancellation; the largest size
 * from the memory; and a short real measurement with a tiny OpenBLAS kernel. */
#include "testutil.h"

/* A simulated row: row v runs at v * s(size) units per second (s: test_paging_model),
 * deterministic times, 8 * size * value bytes of memory. */
typedef struct row_kernel {
    const dls_model *truth;
    double value;
} row_kernel;

static double row_run(double size, double *work, void *data)
{
    const row_kernel *r = data;
    *work = size;
    return size / (r->value * dls_model_speed(r->truth, size));
}

static double row_memory(double size, void *data)
{
    const row_kernel *r = data;
    return 8 * size * r->value;
}

/* The family of simulated rows, counting what it creates and releases. */
typedef struct rows {
    const dls_model *truth;
    int with_memory;
    double fail_at;      /* create fails for this value (0: never) */
    int created, released;
} rows;

static dls_status rows_create(double value, dls_kernel *k, void *data, dls_error *err)
{
    rows *f = data;
    if (value == f->fail_at) {
        dls_error_clear(err);
        if (err != NULL) {
            err->status = DLS_EINVAL;
            snprintf(err->message, sizeof err->message, "no row at %g", value);
        }
        return DLS_EINVAL;
    }
    row_kernel *r = malloc(sizeof *r);
    if (r == NULL)
        return DLS_ENOMEM;
    r->truth = f->truth;
    r->value = value;
    memset(k, 0, sizeof *k);
    k->name = "row";
    k->run = row_run;
    k->data = r;
    k->memory = f->with_memory ? row_memory : NULL;
    f->created++;
    return DLS_OK;
}

static void rows_release(dls_kernel *k, void *data)
{
    rows *f = data;
    free(k->data);
    k->data = NULL;
    f->released++;
}

/* The family of simulated rows over the paging model, as most tests build from it. */
typedef struct simulated {
    dls_model *truth;
    rows f;
    dls_kernel_family family; /* points at f: the fixture stays where sim_init set it */
} simulated;

static void sim_init(simulated *sim, int with_memory)
{
    sim->truth = test_paging_model();
    sim->f = (rows){sim->truth, with_memory, 0, 0, 0};
    sim->family = (dls_kernel_family){rows_create, rows_release, &sim->f};
}

/* What the callbacks saw: the rows in order, the points with their rows. */
typedef struct watcher {
    double row_values[16];
    size_t row_places[16], row_counts[16], nrows;
    dls_bench_point pts[512];
    double pts_row[512];
    size_t npts, progress_calls;
    size_t cancel_at_row;   /* on_row cancels at this place + 1 (0: never) */
    size_t cancel_after;    /* on_point cancels after this many points (0: never) */
} watcher;

static int watch_row(size_t row, size_t count, double value, void *data)
{
    watcher *w = data;
    w->row_places[w->nrows] = row;
    w->row_counts[w->nrows] = count;
    w->row_values[w->nrows++] = value;
    return w->cancel_at_row && row + 1 == w->cancel_at_row;
}

static int watch_point(const dls_bench_point *p, void *data)
{
    watcher *w = data;
    w->pts[w->npts] = *p;
    w->pts_row[w->npts++] = w->nrows ? w->row_values[w->nrows - 1] : NAN;
    return w->cancel_after && w->npts >= w->cancel_after;
}

static int watch_progress(const dls_bench_progress *p, void *data)
{
    (void)p;
    ((watcher *)data)->progress_calls++;
    return 0;
}

/* par reports to w, cleared here; small sizes keep the simulated runs short. */
static void watched(dls_bench_surface_params *par, watcher *w)
{
    memset(w, 0, sizeof *w);
    dls_bench_surface_params_init(par);
    par->bench.min_size = 1e2;
    par->bench.max_size = 1e8;
    par->bench.max_points = 12;
    par->bench.on_point = watch_point;
    par->bench.on_point_data = w;
    par->bench.on_run = watch_progress;
    par->bench.on_run_data = w;
    par->on_row = watch_row;
    par->on_row_data = w;
}

TEST(test_defaults)
{
    dls_bench_surface_params par;
    memset(&par, 0x5a, sizeof par);
    dls_bench_surface_params_init(&par);
    dls_bench_params b;
    dls_bench_params_init(&b);
    assert_memory_equal(&par.bench, &b, sizeof b);
    assert_null(par.resume_fixed);
    assert_null(par.on_row);
    assert_null(par.on_row_data);
    /* the built-in kernels' fixed parameter by default */
    assert_rel(dls_blas_kernel_default_fixed(DLS_KERNEL_GEMM_ROWS), 1024, 0);
    assert_rel(dls_blas_kernel_default_fixed(DLS_KERNEL_LU_UPDATE), 16, 0);
    assert_rel(dls_blas_kernel_default_fixed((dls_blas_kernel_kind)7), 0, 0);
    dls_blas_kernel_params bp;
    dls_blas_kernel_params_init(&bp);
    dls_error err;
    dls_kernel k;
    assert_ok(dls_blas_kernel_create(DLS_KERNEL_GEMM_ROWS, &bp, &k, &err), &err);
    double n = dls_blas_kernel_default_fixed(DLS_KERNEL_GEMM_ROWS);
    assert_rel(k.memory(3, k.data), 8 * (2 * 3 * n + n * n), 0);
    dls_kernel_free(&k);
}

/* The call must fail with EINVAL naming `part`, create no kernel, call no callback and
 * leave the result alone. */
static void expect_rejected(const dls_kernel_family *family, const double *values,
                            size_t count, const dls_bench_surface_params *par, const char *part)
{
    dls_error err;
    dls_model *sentinel = (dls_model *)&err, *out = sentinel;
    const rows *f = family ? family->data : NULL;
    int created = f ? f->created : 0;
    watcher *w = par ? par->on_row_data : NULL;
    size_t nrows = w ? w->nrows : 0, npts = w ? w->npts : 0, nprog = w ? w->progress_calls : 0;
    assert_fails(dls_bench_build_surface(family, values, count, par, &out, &err), DLS_EINVAL, &err,
                 part);
    assert_ptr_equal(out, sentinel);
    if (f)
        assert_int_equal(f->created, created);
    if (w) {
        assert_int_equal(w->nrows, nrows);
        assert_int_equal(w->npts, npts);
        assert_int_equal(w->progress_calls, nprog);
    }
}

TEST(test_rejected)
{
    simulated sim;
    sim_init(&sim, 1);
    watcher w;
    dls_bench_surface_params par;
    watched(&par, &w);
    const double values[] = {1.5, 2.5, 4.25};
    dls_error err;
    /* arguments */
    assert_fails(dls_bench_build_surface(&sim.family, values, 3, &par, NULL, &err), DLS_EINVAL, &err,
                 "NULL result");
    expect_rejected(NULL, values, 3, &par, "NULL kernel family");
    dls_kernel_family no_create = {NULL, rows_release, &sim.f};
    expect_rejected(&no_create, values, 3, &par, "create");
    expect_rejected(&sim.family, NULL, 3, &par, "NULL values");
    expect_rejected(&sim.family, values, 1, &par, "count must be at least 2, not 1");
    expect_rejected(&sim.family, values, 0, &par, "not 0");
    const double down[] = {1.5, 4.25, 2.5};
    expect_rejected(&sim.family, down, 3, &par, "value 3 is 2.5");
    const double zero[] = {0, 2.5};
    expect_rejected(&sim.family, zero, 2, &par, "value 1 is 0");
    const double nan[] = {1.5, NAN};
    expect_rejected(&sim.family, nan, 2, &par, "value 2 is nan");
    const double same[] = {2.5, 2.5};
    expect_rejected(&sim.family, same, 2, &par, "value 2 is 2.5");
    /* every field of the parameters, named with its value */
    dls_bench_surface_params bad;
#define REJECT(stmt, part)                                                                     \
    do {                                                                                       \
        bad = par;                                                                             \
        stmt;                                                                                  \
        expect_rejected(&sim.family, values, 3, &bad, part);                                       \
    } while (0)
    REJECT(bad.bench.min_size = -2.5, "min_size must be > 0, not -2.5");
    REJECT(bad.bench.min_size = INFINITY, "min_size must be > 0, not inf");
    REJECT(bad.bench.max_size = 50, "max_size must be 0 (from the memory) or larger than "
                                    "min_size 100, not 50");
    REJECT(bad.bench.max_size = -1, "not -1");
    REJECT(bad.bench.memory_fraction = 1.5, "memory_fraction must be in (0, 1], not 1.5");
    REJECT(bad.bench.precision = 0, "precision must be in (0, 1), not 0");
    REJECT(bad.bench.confidence = 1, "confidence must be in (0, 1), not 1");
    REJECT(bad.bench.min_reps = 1, "need 2 <= min_reps <= max_reps, not 1 and 50");
    REJECT(bad.bench.max_reps = 2, "not 3 and 2");
    REJECT(bad.bench.size_time_cap = 0, "size_time_cap must be > 0, not 0");
    REJECT(bad.bench.time_budget = -0.5, "time_budget must be finite and >= 0, not -0.5");
    REJECT(bad.bench.initial_points = 1, "need 2 <= initial_points <= max_points, not 1 and 12");
    REJECT(bad.bench.max_points = 4, "not 5 and 4");
    REJECT(bad.bench.passes = 0, "passes must be in [1, 100], not 0");
    REJECT(bad.bench.resume_count = 2, "resume is NULL with resume_count 2");
    dls_bench_point one = {.size = 1e3, .speed = 1e9, .low = 1e9, .high = 1e9, .time = 1e-6, .reps = 3};
    REJECT((bad.bench.resume = &one, bad.bench.resume_count = 1),
           "resume_fixed is NULL with bench.resume_count 1");
#undef REJECT
    /* the rejected calls changed nothing: the same parameters then work */
    assert_int_equal(sim.f.created, 0);
    dls_model *m = NULL;
    assert_ok(dls_bench_build_surface(&sim.family, values, 3, &par, &m, &err), &err);
    assert_non_null(m);
    assert_int_equal(sim.f.created, sim.f.released);
    dls_model_free(m);
    dls_model_free(sim.truth);
}

TEST(test_simulated_surface)
{
    dls_error err;
    simulated sim;
    sim_init(&sim, 0);
    watcher w;
    dls_bench_surface_params par;
    watched(&par, &w);
    const double values[] = {0.5, 1.25, 2.0, 3.75, 6.5};
    dls_model *m = NULL;
    assert_ok(dls_bench_build_surface(&sim.family, values, 5, &par, &m, &err), &err);
    assert_int_equal(dls_model_get_kind(m), DLS_MODEL_SPEED2D);
    /* every kernel released, one per row */
    assert_int_equal(sim.f.created, 5);
    assert_int_equal(sim.f.released, 5);
    /* the middle row first, then the others by increasing value */
    static const double order[] = {2.0, 0.5, 1.25, 3.75, 6.5};
    assert_int_equal(w.nrows, 5);
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(w.row_places[i], i);
        assert_int_equal(w.row_counts[i], 5);
        assert_rel(w.row_values[i], order[i], 0);
    }
    assert_true(w.progress_calls > 0);
    /* the grid: x the values, y the sizes the middle row's own build keeps */
    size_t nx, ny;
    const double *x, *y, *v;
    assert_ok(dls_model_get_grid(m, &nx, &x, &ny, &y, &v), &err);
    assert_int_equal(nx, 5);
    for (size_t i = 0; i < 5; i++)
        assert_rel(x[i], values[i], 0);
    dls_kernel k;
    assert_ok(rows_create(2.0, &k, &sim.f, &err), &err);
    dls_bench_params one = par.bench;
    one.on_point = NULL;
    one.on_run = NULL;
    dls_bench *b;
    assert_ok(dls_bench_build(&k, &one, &b, &err), &err);
    rows_release(&k, &sim.f);
    size_t nk;
    const double *ky;
    dls_model_get_points(dls_bench_model(b), &nk, &ky, NULL, NULL, NULL);
    assert_int_equal(ny, nk);
    for (size_t j = 0; j < ny; j++)
        assert_rel(y[j], ky[j], 0);
    size_t nmid;
    dls_bench_points(b, &nmid);
    dls_bench_free(b);
    /* the speeds are the truth (the simulated times carry no noise) */
    for (size_t i = 0; i < nx; i++)
        for (size_t j = 0; j < ny; j++) {
            assert_rel(v[i * ny + j], values[i] * dls_model_speed(sim.truth, y[j]), 1e-12);
            assert_rel(dls_model_speed2d(m, x[i], y[j]), v[i * ny + j], 1e-12);
        }
    /* every point measured was reported, with its row: the middle row's build, then ny
     * points per other row */
    assert_int_equal(w.npts, nmid + 4 * ny);
    for (size_t p = nmid; p < w.npts; p++) {
        size_t r = (p - nmid) / ny;
        assert_rel(w.pts_row[p], order[1 + r], 0);
        assert_rel(w.pts[p].size, y[(p - nmid) % ny], 0);
    }
    dls_model_free(m);
    dls_model_free(sim.truth);
}

TEST(test_resume)
{
    dls_error err;
    simulated sim;
    sim_init(&sim, 0);
    const double values[] = {1.5, 3.25, 7.0};
    watcher full;
    dls_bench_surface_params par;
    watched(&par, &full);
    dls_model *ref = NULL;
    assert_ok(dls_bench_build_surface(&sim.family, values, 3, &par, &ref, &err), &err);
    /* killed during the last row... */
    size_t cut = full.npts - 2;
    watcher part;
    watched(&par, &part);
    part.cancel_after = cut;
    dls_model *m = (dls_model *)&err;
    assert_fails(dls_bench_build_surface(&sim.family, values, 3, &par, &m, &err), DLS_ECANCELED, &err,
                 "canceled");
    assert_ptr_equal(m, (dls_model *)&err);
    assert_int_equal(part.npts, cut);
    assert_int_equal(sim.f.created, sim.f.released);
    /* ...resumed from what it logged: only the rest is measured, to the same surface */
    watcher rest;
    watched(&par, &rest);
    par.bench.resume = part.pts;
    par.bench.resume_count = part.npts;
    par.resume_fixed = part.pts_row;
    m = NULL;
    assert_ok(dls_bench_build_surface(&sim.family, values, 3, &par, &m, &err), &err);
    assert_int_equal(part.npts + rest.npts, full.npts);
    assert_true(dls_model_equal(m, ref));
    dls_model_free(m);
    /* a point is reused only in its own row: with the rows shifted, all is measured again */
    double wrong_rows[512];
    for (size_t i = 0; i < full.npts; i++)
        wrong_rows[i] = full.pts_row[i] + 1;
    watcher again;
    watched(&par, &again);
    par.bench.resume = full.pts;
    par.bench.resume_count = full.npts;
    par.resume_fixed = wrong_rows;
    assert_ok(dls_bench_build_surface(&sim.family, values, 3, &par, &m, &err), &err);
    assert_int_equal(again.npts, full.npts);
    dls_model_free(m);
    dls_model_free(ref);
    dls_model_free(sim.truth);
}

TEST(test_cancel_and_failures)
{
    dls_error err;
    simulated sim;
    sim_init(&sim, 0);
    const double values[] = {1.5, 3.25, 7.0, 9.5};
    dls_model *sentinel = (dls_model *)&sim.f, *m = sentinel;
    /* on_row cancels before the third row */
    watcher w;
    dls_bench_surface_params par;
    watched(&par, &w);
    w.cancel_at_row = 3;
    assert_fails(dls_bench_build_surface(&sim.family, values, 4, &par, &m, &err), DLS_ECANCELED, &err,
                 "canceled before the row at 3.25");
    assert_ptr_equal(m, sentinel);
    assert_int_equal(w.nrows, 3);
    assert_int_equal(sim.f.created, 2);
    assert_int_equal(sim.f.released, 2);
    /* a row's kernel cannot be created: its status and message, and nothing leaks */
    sim.f.fail_at = 9.5;
    watched(&par, &w);
    assert_fails(dls_bench_build_surface(&sim.family, values, 4, &par, &m, &err), DLS_EINVAL, &err,
                 "no row at 9.5");
    assert_ptr_equal(m, sentinel);
    assert_int_equal(sim.f.created, sim.f.released);
    /* the middle row's kernel cannot be created */
    sim.f.fail_at = 7.0;
    assert_fails(dls_bench_build_surface(&sim.family, values, 4, &par, &m, &err), DLS_EINVAL, &err,
                 "no row at 7");
    assert_int_equal(sim.f.created, sim.f.released);
    /* the largest size from the memory needs a memory formula */
    sim.f.fail_at = 0;
    par.bench.max_size = 0;
    assert_fails(dls_bench_build_surface(&sim.family, values, 4, &par, &m, &err), DLS_EINVAL, &err,
                 "no memory formula");
    assert_ptr_equal(m, sentinel);
    assert_int_equal(sim.f.created, sim.f.released);
    dls_model_free(sim.truth);
}

TEST(test_largest_size_from_memory)
{
    dls_error err;
    double avail;
    assert_ok(dls_memory_available(&avail, &err), &err);
    simulated sim;
    sim_init(&sim, 1);
    const double values[] = {1.5, 3.25, 7.0};
    dls_bench_surface_params par;
    dls_bench_surface_params_init(&par);
    par.bench.min_size = 1e2;
    par.bench.max_size = 0;
    par.bench.max_points = 6;
    /* the most demanding row (8 x 7 bytes per unit) decides the common largest size: 1e6 */
    par.bench.memory_fraction = 7.0 * 8 * 1e6 / avail;
    dls_model *m = NULL;
    assert_ok(dls_bench_build_surface(&sim.family, values, 3, &par, &m, &err), &err);
    size_t ny;
    const double *y;
    assert_ok(dls_model_get_grid(m, NULL, NULL, &ny, &y, NULL), &err);
    assert_rel(y[0], 1e2, 0);
    /* MemAvailable may move a little between the calls */
    assert_rel(y[ny - 1], 1e6, 1e-2);
    assert_int_equal(sim.f.created, sim.f.released);
    dls_model_free(m);
    dls_model_free(sim.truth);
}

/* The built-in lu-update kernels: x blocks high, sizes in blocks. */
static dls_status lu_rows_create(double value, dls_kernel *k, void *data, dls_error *err)
{
    dls_blas_kernel_params bp = *(const dls_blas_kernel_params *)data;
    bp.fixed = value;
    return dls_blas_kernel_create(DLS_KERNEL_LU_UPDATE, &bp, k, err);
}

static void lu_rows_release(dls_kernel *k, void *data)
{
    (void)data;
    dls_kernel_free(k);
}

TEST(test_blas_surface)
{
    dls_error err;
    dls_blas_kernel_params bp;
    dls_blas_kernel_params_init(&bp);
    bp.block = 4;
    dls_kernel_family family = {lu_rows_create, lu_rows_release, &bp};
    const double values[] = {2, 3};
    dls_bench_surface_params par;
    dls_bench_surface_params_init(&par);
    par.bench.max_size = 8;
    par.bench.max_points = 5;
    par.bench.size_time_cap = 0.02;
    dls_model *m = NULL;
    assert_ok(dls_bench_build_surface(&family, values, 2, &par, &m, &err), &err);
    size_t nx, ny;
    const double *x, *y, *v;
    assert_ok(dls_model_get_grid(m, &nx, &x, &ny, &y, &v), &err);
    assert_int_equal(nx, 2);
    assert_true(ny >= 2);
    assert_rel(y[0], 1, 0);
    assert_rel(y[ny - 1], 8, 0);
    for (size_t j = 0; j < nx * ny; j++)
        assert_true(isfinite(v[j]) && v[j] > 0);
    dls_model_free(m);
    /* a value the kernel refuses: the kernel's own message */
    const double half[] = {2, 2.5};
    assert_fails(dls_bench_build_surface(&family, half, 2, &par, &m, &err), DLS_EINVAL, &err,
                 "whole number");
}

TEST_MAIN("surface", test_defaults, test_rejected, test_simulated_surface, test_resume,
          test_cancel_and_failures, test_largest_size_from_memory, test_blas_surface)
