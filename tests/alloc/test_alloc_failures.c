/* Out-of-memory paths: every allocation the library (and jansson under it) makes is failed in
 * turn, and each call must then fail cleanly with DLS_ENOMEM, leave its outputs and inputs
 * untouched and leak nothing. The allocator is replaced by counting wrappers around glibc's
 * own (glibc supports replacing malloc this way), so this program is not built under
 * AddressSanitizer, which replaces the allocator itself. */
#include <unistd.h>

#include <glpk.h>

#include "failing_malloc.h"

#if !TEST_WRAP_MALLOC
#error "this program replaces malloc (glibc without sanitizers)"
#endif

static const char platform_text[] =
    "{\"processors\": [\n"
    " {\"name\": \"cpu0\", \"speed\": 2.5e9},\n"
    " {\"name\": \"node7\", \"speed\": {\"points\": [[1e3, 2.1e9, 2e9, 2.2e9], [1e6, 1.9e9, 1.8e9, 2e9],"
    " [4e7, 2e8, 1e8, 3e8]]}, \"limit\": 5e7},\n"
    " {\"name\": \"w1\", \"time\": [[1, 1], [-9, 10]], \"link\": {\"startup\": 1, \"rate\": 1}},\n"
    " {\"name\": \"gpu0\", \"speed2d\": {\"x\": [64, 1024, 8192], \"y\": [64, 1024],"
    " \"values\": [[1e9, 2e9], [3e9, 4e9], [5e9, 5.5e9]]}}\n"
    "]}\n";

typedef struct ctx {
    dls_platform *platform;
    dls_platform *out;
    dls_model *model;
    dls_model *mout;
    char *text;
    const char *path;
} ctx;

static dls_status do_read(void *p, dls_error *err)
{
    ctx *c = p;
    c->out = NULL;
    dls_status st = dls_platform_read_string(platform_text, strlen(platform_text), "p.json",
                                             &c->out, err);
    if (st != DLS_OK)
        assert_null(c->out);
    return st;
}

static void free_out(void *p)
{
    ctx *c = p;
    dls_platform_free(c->out);
    c->out = NULL;
}

static dls_status do_to_string(void *p, dls_error *err)
{
    ctx *c = p;
    c->text = NULL;
    dls_status st = dls_platform_to_string(c->platform, &c->text, err);
    if (st != DLS_OK)
        assert_null(c->text);
    return st;
}

static void free_text(void *p)
{
    ctx *c = p;
    dls_free(c->text);
    c->text = NULL;
}

static dls_status do_copy(void *p, dls_error *err)
{
    ctx *c = p;
    c->out = NULL;
    return dls_platform_copy(c->platform, &c->out, err);
}

static dls_status do_write(void *p, dls_error *err)
{
    ctx *c = p;
    return dls_platform_write_file(c->platform, c->path, err);
}

/* CSV rows for every path of the reader: a header with an ignored column, quoted names,
 * runs pooled with deviations, a single run (a note), a comment and an empty line. */
static const char csv_text[] =
    "# timings\n"
    "name,size,time,stddev,count,-\n"
    "\"cpu, 0\",1000,0.5,0.01,5,a\n"
    "\"cpu, 0\",1000,0.52,0.02,3,a\n"
    "\n"
    "gpu,1000,0.05,,,b\n"
    "gpu,2000,0.09,0.001,4,b\n";

static dls_status do_csv_import(void *p, dls_error *err)
{
    ctx *c = p;
    c->out = NULL;
    dls_platform *pl;
    dls_status st = dls_platform_create(&pl, err);
    if (st != DLS_OK)
        return st;
    dls_import_report *rep = NULL;
    st = dls_import_csv_string(csv_text, strlen(csv_text), "t.csv", NULL, pl, &rep, err);
    if (st != DLS_OK) {
        assert_null(rep);
        assert_int_equal(dls_platform_count(pl), 0);
        dls_platform_free(pl);
        return st;
    }
    assert_int_equal(dls_import_report_count(rep), 2);
    dls_import_report_free(rep);
    c->out = pl;
    return st;
}

static dls_status do_csv_export(void *p, dls_error *err)
{
    ctx *c = p;
    c->text = NULL;
    dls_status st = dls_platform_csv_to_string(c->platform, 1, &c->text, err);
    if (st != DLS_OK)
        assert_null(c->text);
    return st;
}

static dls_status do_add_remove(void *p, dls_error *err)
{
    ctx *c = p;
    size_t n = dls_platform_count(c->platform);
    dls_status st = dls_platform_add(c->platform, "extra", c->model, NULL, err);
    if (st != DLS_OK) {
        assert_int_equal(dls_platform_count(c->platform), n);
        assert_int_equal(test_platform_index(c->platform, "extra"), -1);
        return st;
    }
    st = dls_platform_remove(c->platform, n, err);
    if (st != DLS_OK) {
        /* remove failed: the processor is still there; take it out without injection */
        long saved = countdown;
        countdown = -1;
        assert_int_equal(dls_platform_remove(c->platform, n, NULL), DLS_OK);
        countdown = saved;
    }
    assert_int_equal(dls_platform_count(c->platform), n);
    return st;
}

static dls_status do_set_model(void *p, dls_error *err)
{
    ctx *c = p;
    const dls_model *before = dls_platform_model(c->platform, 1);
    dls_status st = dls_platform_set_model(c->platform, 1, c->model, err);
    if (st != DLS_OK)
        assert_ptr_equal(dls_platform_model(c->platform, 1), before);
    return st;
}

static dls_status do_envelope(void *p, dls_error *err)
{
    ctx *c = p;
    c->mout = NULL;
    dls_envelope_params par;
    dls_envelope_params_init(&par);
    par.rel_tol = 1e-6;
    return dls_model_convex_envelope(dls_platform_model(c->platform, 1), 1e9, &par, &c->mout,
                                     NULL, err);
}

static dls_status do_lines_envelope(void *p, dls_error *err)
{
    ctx *c = p;
    c->mout = NULL;
    return dls_model_convex_envelope(dls_platform_model(c->platform, 2), 2, NULL, &c->mout, NULL,
                                     err);
}

static dls_status do_section(void *p, dls_error *err)
{
    ctx *c = p;
    c->mout = NULL;
    return dls_model_section(dls_platform_model(c->platform, 3), 100, &c->mout, err);
}

static dls_status do_sample(void *p, dls_error *err)
{
    ctx *c = p;
    const double at[] = {0.5, 1, 2, 3};
    c->mout = NULL;
    return dls_model_sample(dls_platform_model(c->platform, 2), 4, at, &c->mout, err);
}

typedef struct pctx {
    dls_platform *platform;
    dls_partition_params par;
    uint64_t n;
    int striped;
    dls_partition *res;
} pctx;

static dls_status do_partition(void *p, dls_error *err)
{
    pctx *c = p;
    c->res = NULL;
    dls_status st = c->striped ? dls_partition_solve_matrix(c->platform, c->n, &c->par, &c->res, err)
                               : dls_partition_solve(c->platform, c->n, &c->par, &c->res, err);
    if (st != DLS_OK)
        assert_null(c->res);
    return st;
}

static void free_res(void *p)
{
    pctx *c = p;
    dls_partition_free(c->res);
    c->res = NULL;
}

TEST(test_partition_allocation_failures)
{
    dls_error err;
    pctx c;
    memset(&c, 0, sizeof c);
    const char *text = "{\"processors\": [{\"name\": \"a\", \"speed\": 3},"
                       " {\"name\": \"b\", \"speed\": {\"points\": [[1, 4], [10, 2]]}, \"limit\": 7},"
                       " {\"name\": \"c\", \"time\": [[0.1, 1], [-5, 2]]}]}";
    assert_ok(dls_platform_read_string(text, strlen(text), "p.json", &c.platform, &err), &err);
    static const double w[] = {3, 1, 4, 1, 5, 9, 2, 6};
    const char *names[] = {"equal", "ordered", "reorder", "weighted", "weighted ordered",
                           "weighted reorder", "bisection"};
    printf("# partition allocation points:");
    for (int k = 0; k < 7; k++) {
        dls_partition_params_init(&c.par);
        c.n = k >= 3 && k <= 5 ? 8 : 25;
        c.par.ordered = k == 1 || k == 2 || k == 4 || k == 5;
        c.par.reorder = k == 2 || k == 5;
        c.par.weights = k >= 3 && k <= 5 ? w : NULL;
        c.par.method = k == 6 ? DLS_PARTITION_BISECTION : DLS_PARTITION_NEWTON;
        printf(" %s %ld", names[k], fm_exhaust(names[k], do_partition, &c, free_res, DLS_OK));
    }
    dls_partition_params_init(&c.par);
    c.striped = 1;
    c.n = 12;
    printf(" striped %ld", fm_exhaust("striped", do_partition, &c, free_res, DLS_OK));
    c.par.exact = DLS_PARTITION_EXACT_ALWAYS;
    printf(" striped exact %ld\n", fm_exhaust("striped exact", do_partition, &c, free_res,
                                               DLS_OK));
    dls_platform_free(c.platform);
}

typedef struct lctx {
    dls_platform *platform;
    dls_lu_params par;
    uint64_t n;
    dls_lu *res;
} lctx;

static dls_status do_lu(void *p, dls_error *err)
{
    lctx *c = p;
    c->res = NULL;
    dls_status st = dls_lu_distribute(c->platform, c->n, &c->par, &c->res, err);
    if (st != DLS_OK)
        assert_null(c->res);
    return st;
}

static void free_lu(void *p)
{
    lctx *c = p;
    dls_lu_free(c->res);
    c->res = NULL;
}

static dls_status do_lu_evaluate(void *p, dls_error *err)
{
    lctx *c = p;
    size_t own[12];
    double cost;
    for (size_t j = 0; j < 12; j++)
        own[j] = j % 3;
    return dls_lu_evaluate(c->platform, 12, own, &cost, NULL, err);
}

TEST(test_lu_allocation_failures)
{
    dls_error err;
    lctx c;
    memset(&c, 0, sizeof c);
    /* a 2-D model whose time is not monotone at small sizes, so that the exact per-step
     * solver runs too, and a limit */
    const char *text = "{\"processors\": [{\"name\": \"a\", \"speed\": 3},"
                       " {\"name\": \"b\", \"speed\": {\"points\": [[1, 4], [10, 2]]}, \"limit\": 7},"
                       " {\"name\": \"c\", \"speed2d\": {\"x\": [1, 20], \"y\": [1, 3, 9],"
                       " \"values\": [[1, 6, 7], [2, 5, 8]]}}]}";
    assert_ok(dls_platform_read_string(text, strlen(text), "p.json", &c.platform, &err), &err);
    printf("# lu allocation points:");
    for (int a = 0; a < DLS_LU_ALGORITHM_COUNT; a++) {
        dls_lu_params_init(&c.par);
        c.par.algorithm = (dls_lu_algorithm)a;
        c.n = 14;
        printf(" %s %ld", dls_lu_algorithm_name(c.par.algorithm),
               fm_exhaust(dls_lu_algorithm_name(c.par.algorithm), do_lu, &c, free_lu, DLS_OK));
    }
    for (int h = DLS_LU_CYCL; h <= DLS_LU_EXHAUSTIVE; h++) {
        dls_lu_params_init(&c.par);
        c.par.heuristic = (dls_lu_heuristic)h;
        c.n = 14;
        printf(" fr-%s %ld", dls_lu_heuristic_name(c.par.heuristic),
               fm_exhaust("fr heuristic", do_lu, &c, free_lu, DLS_OK));
    }
    printf(" evaluate %ld\n", fm_exhaust("lu evaluate", do_lu_evaluate, &c, NULL, DLS_OK));
    dls_platform_free(c.platform);
}

typedef struct sctx {
    dls_platform *platform;
    dls_schedule_params par;
    int mode; /* 0 solve, 1 evaluate, 2 export, 3 svg */
    const char *path;
    dls_schedule *res;
    char *svg;
} sctx;

static dls_status do_schedule(void *p, dls_error *err)
{
    sctx *c = p;
    static const double loads[] = {1e5, 2e5, 3e5, 1e5, 1e5};
    c->res = NULL;
    switch (c->mode) {
    case 0:
        return dls_schedule_solve(c->platform, 1e6, &c->par, &c->res, err);
    case 1:
        return dls_schedule_evaluate(c->platform, loads, &c->par, &c->res, err);
    case 2:
        return dls_schedule_lp_write_file(c->platform, 1e6, &c->par,
                                   c->par.order == DLS_ORDER_RATE ? DLS_EXPORT_MATHPROG
                                                                  : DLS_EXPORT_MPS,
                                   c->path, err);
    default: {
        dls_status st = dls_schedule_solve(c->platform, 1e6, &c->par, &c->res, err);
        if (st == DLS_OK) {
            st = dls_schedule_gantt_to_string(c->res, c->platform, &c->svg, err);
            if (st != DLS_OK) {
                dls_schedule_free(c->res);
                c->res = NULL;
            }
        }
        return st;
    }
    }
}

static void free_sched(void *p)
{
    sctx *c = p;
    dls_schedule_free(c->res);
    dls_free(c->svg);
    c->res = NULL;
    c->svg = NULL;
}

static void glpk_env(void)
{
    glp_init_env();
}

TEST(test_schedule_allocation_failures)
{
    dls_error err;
    sctx c;
    memset(&c, 0, sizeof c);
    assert_ok(dls_platform_read_file(TOP_SRCDIR "/examples/star_cluster.json", &c.platform, &err),
              &err);
    char dir[] = "/tmp/dls_alloc_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/x", dir);
    c.path = path;
    const char *names[] = {"solve", "evaluate", "export mps", "export mathprog", "svg"};
    fm_prepare = glpk_env;
    printf("# schedule allocation points:");
    for (int k = 0; k < 5; k++) {
        dls_schedule_params_init(&c.par);
        c.mode = k <= 2 ? k : k - 1;
        c.par.order = k == 3 ? DLS_ORDER_RATE : DLS_ORDER_GIVEN;
        /* GLPK's own allocations fail through its error hook: DLS_ESOLVER */
        printf(" %s %ld", names[k], fm_exhaust(names[k], do_schedule, &c, free_sched,
                                           k == 0 || k == 4 ? DLS_ESOLVER
                                           : k >= 2         ? DLS_EIO
                                                            : DLS_OK));
    }
    printf("\n");
    fm_prepare = NULL;
    unlink(path);
    rmdir(dir);
    dls_platform_free(c.platform);
}

static void free_mout(void *p)
{
    ctx *c = p;
    dls_model_free(c->mout);
    c->mout = NULL;
}

typedef struct ictx {
    dls_platform *platform;
    int mode; /* 0 integer with MIP, 1 exact shape, 2 crosscheck */
    dls_schedule *res;
} ictx;

static dls_status do_mip(void *p, dls_error *err)
{
    ictx *c = p;
    c->res = NULL;
    dls_mip_params mp;
    dls_mip_params_init(&mp);
    if (c->mode == 0) {
        mp.integer = 1;
        return dls_schedule_solve_integer(c->platform, 3000, NULL, &mp, &c->res, err);
    }
    if (c->mode == 1) {
        mp.exact_shape = 1;
        return dls_schedule_solve_mip(c->platform, 3000, NULL, &mp, &c->res, err);
    }
    dls_crosscheck *cc = NULL;
    dls_status st = dls_crosscheck_run(c->platform, 200, NULL, &cc, err);
    dls_crosscheck_free(cc);
    return st;
}

static void free_mip(void *p)
{
    ictx *c = p;
    dls_schedule_free(c->res);
    c->res = NULL;
}

TEST(test_mip_allocation_failures)
{
    dls_error err;
    ictx c;
    memset(&c, 0, sizeof c);
    const char *text = "{\"processors\": ["
                       "{\"name\": \"a\", \"time\": [[0, 1e-3], [-2, 2e-3]], \"link\": {\"startup\": 0.01, \"rate\": 1e-5}},"
                       "{\"name\": \"b\", \"speed\": {\"points\": [[10, 300], [100, 900], [1000, 800], [3000, 200]]},"
                       " \"link\": {\"startup\": 0.02, \"rate\": 2e-5}}]}";
    assert_ok(dls_platform_read_string(text, strlen(text), "p.json", &c.platform, &err), &err);
    const char *names[] = {"integer", "exact shape", "crosscheck"};
    fm_prepare = glpk_env;
    printf("# MIP allocation points:");
    for (int k = 0; k < 3; k++) {
        c.mode = k;
        printf(" %s %ld", names[k], fm_exhaust(names[k], do_mip, &c, free_mip, DLS_ESOLVER));
    }
    printf("\n");
    fm_prepare = NULL;
    dls_platform_free(c.platform);
}

TEST(test_allocation_failures)
{
    dls_error err;
    ctx c = {0};
    assert_ok(dls_platform_read_string(platform_text, strlen(platform_text), "p.json",
                                       &c.platform, &err), &err);
    assert_ok(dls_model_create_constant(7, &c.model, &err), &err);
    char dir[] = "/tmp/dls_alloc_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/p.json", dir);
    c.path = path;
    static const struct {
        const char *name;
        fm_call call;
        void (*cleanup)(void *ctx);
        dls_status also;
    } cases[] = {
        /* jansson reports some allocation failures inside its lexer as syntax errors */
        {"read", do_read, free_out, DLS_ESYNTAX},
        {"to_string", do_to_string, free_text, DLS_OK},
        {"copy", do_copy, free_out, DLS_OK},
        /* before set_model, which makes processor 1 constant */
        {"csv import", do_csv_import, free_out, DLS_OK},
        {"csv export", do_csv_export, free_text, DLS_OK},
        {"write", do_write, NULL, DLS_EIO},
        {"add/remove", do_add_remove, NULL, DLS_OK},
        {"set_model", do_set_model, NULL, DLS_OK},
        {"envelope", do_envelope, free_mout, DLS_OK},
        {"lines envelope", do_lines_envelope, free_mout, DLS_OK},
        {"section", do_section, free_mout, DLS_OK},
        {"sample", do_sample, free_mout, DLS_OK},
    };
    printf("# allocation points:");
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        printf("%s %s %ld", k ? "," : "", cases[k].name,
               fm_exhaust(cases[k].name, cases[k].call, &c, cases[k].cleanup, cases[k].also));
    printf("\n");
    unlink(path);
    rmdir(dir);
    dls_model_free(c.model);
    dls_platform_free(c.platform);
}

/* Importing and exporting models (dlsched/import.h): a failed import leaves the platform
 * empty, as it found it. */
static const char starpu_text[] =
    "45\n2\n1\n0\n0\n1\n1\n3\n0 0 0 0 nan nan 0 0 0\nnan nan nan\n0\n"
    "0000abcd 1000 0 10 1 100 1010 10\n0000abce 4000 0 50 5 250 12625 1\n"
    "0000abcf 4000 0 60 5 250 12625 3\n"
    "1\n1\n0\n1\n1\n0\n0 0 0 0 nan nan 20 1000 64000\n0.5 1.2 3\n0\n";

static dls_status do_import_starpu(void *p, dls_error *err)
{
    (void)p;
    dls_platform *pl = NULL;
    dls_status st = dls_platform_create(&pl, err);
    if (st != DLS_OK)
        return st;
    dls_import_report *rep = NULL;
    st = dls_import_starpu_string(starpu_text, strlen(starpu_text), "m.host", NULL, pl, &rep,
                                  err);
    if (st != DLS_OK) {
        assert_null(rep);
        assert_int_equal(dls_platform_count(pl), 0);
    } else {
        assert_int_equal(dls_import_report_count(rep), 2);
    }
    dls_import_report_free(rep);
    dls_platform_free(pl);
    return st;
}

static dls_status do_export_starpu(void *p, dls_error *err)
{
    ctx *c = p;
    c->text = NULL;
    dls_status st = dls_platform_starpu_to_string(c->platform, 1, NULL, &c->text, err);
    if (st != DLS_OK)
        assert_null(c->text);
    return st;
}

TEST(test_import_allocation_failures)
{
    dls_error err;
    ctx c = {0};
    assert_ok(dls_platform_read_string(platform_text, strlen(platform_text), "p.json",
                                       &c.platform, &err), &err);
    printf("# import allocation points: starpu %ld, export starpu %ld\n",
           fm_exhaust("import starpu", do_import_starpu, &c, NULL, DLS_OK),
           fm_exhaust("export starpu", do_export_starpu, &c, free_text, DLS_OK));
    dls_platform_free(c.platform);
}

/* dlsched/verify.h: reading a claim (JSON and CSV) and each verification, optima
 * included. */
typedef struct vctx {
    dls_platform *platform;
    dls_claim *claim;
    const char *text;
    dls_verification *v;
    int which; /* 0 schedule, 1 partition, 2 installments */
    const dls_verify_params *par; /* NULL: the defaults */
} vctx;

static dls_status do_claim_read(void *p, dls_error *err)
{
    vctx *c = p;
    c->claim = NULL;
    dls_status st = dls_claim_read_string(c->platform, c->text, strlen(c->text), "t", &c->claim,
                                          err);
    if (st != DLS_OK)
        assert_null(c->claim);
    return st;
}

static void free_claim(void *p)
{
    vctx *c = p;
    dls_claim_free(c->claim);
    c->claim = NULL;
}

static dls_status do_verify(void *p, dls_error *err)
{
    vctx *c = p;
    c->v = NULL;
    dls_status st = c->which == 0   ? dls_schedule_verify(c->platform, c->claim, c->par, &c->v, err)
                    : c->which == 1 ? dls_partition_verify(c->platform, c->claim, c->par, &c->v,
                                                           err)
                                    : dls_installment_verify(c->platform, c->claim, NULL, &c->v,
                                                             err);
    if (st != DLS_OK)
        assert_null(c->v);
    return st;
}

static void free_verification(void *p)
{
    vctx *c = p;
    dls_verification_free(c->v);
    c->v = NULL;
}

/* The placement setters: on failure the claim keeps what it had. */
typedef struct wctx {
    dls_claim *claim;
    const size_t *owner;
    const uint64_t *first, *count;
    int chunks;
} wctx;

static dls_status do_placement(void *p, dls_error *err)
{
    wctx *x = p;
    return x->chunks ? dls_claim_set_chunks(x->claim, x->first, x->count, 3, err)
                     : dls_claim_set_assignment(x->claim, x->owner, 6, err);
}

TEST(test_verify_allocation_failures)
{
    dls_error err;
    vctx c = {0};
    /* the platform above without its 2-D processor, which a star schedule cannot use */
    static const char star_text[] =
        "{\"processors\": [{\"name\": \"cpu0\", \"speed\": 2.5e9},"
        " {\"name\": \"node7\", \"speed\": {\"points\": [[1e3, 2.1e9], [1e6, 1.9e9]]},"
        " \"limit\": 5e7, \"link\": {\"startup\": 0.5, \"rate\": 1e-3}},"
        " {\"name\": \"w1\", \"time\": [[1, 1], [-9, 10]], \"link\": {\"startup\": 1, "
        "\"rate\": 1}}]}";
    assert_ok(dls_platform_read_string(star_text, strlen(star_text), "p.json", &c.platform,
                                       &err), &err);
    /* CSV only: jansson reports some of its own allocation failures as syntax errors, so the
     * JSON reader cannot tell them apart (it returns ESYNTAX for them) */
    const char *texts[] = {"name,load\ncpu0,40\n\"node7\",30\nw1,30\n",
                           "name,elements\ncpu0,40\nnode7,30\nw1,30\n"};
    const char *names[] = {"schedule", "partition", "installments"};
    printf("# verify allocation points:");
    for (int k = 0; k < 3; k++) {
        c.which = k;
        if (k < 2) {
            c.text = texts[k];
            printf(" read %s %ld", names[k],
                   fm_exhaust(names[k], do_claim_read, &c, free_claim, DLS_OK));
            assert_ok(dls_claim_read_string(c.platform, c.text, strlen(c.text), "t", &c.claim,
                                            &err), &err);
        } else {
            /* 100 units in chunks of 30: cpu0 30 + 10, node7 30, w1 30 */
            assert_ok(dls_claim_create(c.platform, DLS_CLAIM_INSTALLMENTS, &c.claim, &err),
                      &err);
            assert_ok(dls_claim_set_chunk(c.claim, 30, &err), &err);
            const double load[3] = {40, 30, 30};
            for (size_t i = 0; i < 3; i++)
                assert_ok(dls_claim_set(c.claim, i, load[i], NAN, NAN, NAN, NAN, &err), &err);
        }
        printf(" verify %s %ld", names[k],
               fm_exhaust(names[k], do_verify, &c, free_verification, DLS_OK));
        dls_claim_free(c.claim);
        c.claim = NULL;
    }
    /* a weighted partition: its placement set (the claim keeps the earlier one when the
     * copy fails), then verified element by element with its optimum */
    static const double w[6] = {3.25, 1.5, 4.125, 1.75, 5.5, 2.375};
    static const size_t own[6] = {0, 1, 2, 0, 1, 2};
    static const uint64_t first[3] = {0, 2, 4}, count[3] = {2, 2, 2};
    wctx x = {NULL, own, first, count, 0};
    assert_ok(dls_claim_create(c.platform, DLS_CLAIM_PARTITION, &x.claim, &err), &err);
    printf(" assignment %ld", fm_exhaust("assignment", do_placement, &x, NULL, DLS_OK));
    x.chunks = 1;
    printf(" chunks %ld", fm_exhaust("chunks", do_placement, &x, NULL, DLS_OK));
    dls_verify_params vp;
    dls_verify_params_init(&vp);
    vp.weights = w;
    vp.n_weights = 6;
    vp.ordered = 1;
    c.par = &vp;
    c.claim = x.claim;
    c.which = 1;
    for (size_t i = 0; i < 3; i++)
        assert_ok(dls_claim_set(c.claim, i, w[2 * i] + w[2 * i + 1], NAN, NAN, NAN, NAN, &err),
                  &err);
    printf(" verify weighted %ld", fm_exhaust("verify weighted", do_verify, &c,
                                              free_verification, DLS_OK));
    dls_claim_free(c.claim);
    printf("\n");
    dls_platform_free(c.platform);
}

/* The balancer: a failed step must leave it as it was (the next try starts from the same
 * state), a failed create or plan must leave *out untouched. */
typedef struct bctx {
    dls_balance *b;
    dls_balance_params par;
    double limits[4];
    double times[4];
    uint64_t before[4], after[4];
    dls_move_plan *plan;
} bctx;

static const double balance_speed[4] = {1e3, 2e3, 5e3, 4e3};

/* Times of processor i for its share: in core to 300 elements, 8 times slower past it. */
static void balance_times(bctx *c)
{
    const uint64_t *d = dls_balance_shares(c->b);
    for (size_t i = 0; i < 4; i++) {
        double x = (double)d[i];
        c->times[i] = (x <= 300 ? x : 300 + 8 * (x - 300)) / balance_speed[i];
    }
}

/* A balancer that has taken one step: its points, models and plan exist. */
static void balance_fresh(bctx *c)
{
    dls_error err;
    dls_balance_free(c->b);
    c->b = NULL;
    assert_ok(dls_balance_create(4, 1000, &c->par, &c->b, &err), &err);
    balance_times(c);
    assert_ok(dls_balance_step(c->b, 4, NULL, c->times, &err), &err);
    balance_times(c);
}

static dls_status do_balance_step(void *p, dls_error *err)
{
    bctx *c = p;
    uint64_t shares[4];
    dls_balance_info a, b;
    memcpy(shares, dls_balance_shares(c->b), sizeof shares);
    assert_int_equal(dls_balance_get_info(c->b, &a, NULL), DLS_OK);
    dls_status st = dls_balance_step(c->b, 4, NULL, c->times, err);
    if (st != DLS_OK) {
        assert_memory_equal(shares, dls_balance_shares(c->b), sizeof shares);
        assert_int_equal(dls_balance_get_info(c->b, &b, NULL), DLS_OK);
        assert_memory_equal(&a, &b, sizeof a);
    }
    return st;
}

static void balance_again(void *p)
{
    balance_fresh(p);
}

static dls_status do_balance_create(void *p, dls_error *err)
{
    bctx *c = p;
    dls_balance *b = NULL;
    dls_status st = dls_balance_create(4, 1000, &c->par, &b, err);
    if (st != DLS_OK)
        assert_null(b);
    dls_balance_free(b);
    return st;
}

static dls_status do_move_plan(void *p, dls_error *err)
{
    bctx *c = p;
    c->plan = NULL;
    dls_status st = dls_move_plan_create(4, c->before, c->after, &c->plan, err);
    if (st != DLS_OK)
        assert_null(c->plan);
    return st;
}

static void free_plan(void *p)
{
    bctx *c = p;
    dls_move_plan_free(c->plan);
    c->plan = NULL;
}

TEST(test_balance_allocation_failures)
{
    bctx c;
    memset(&c, 0, sizeof c);
    for (int mode = 0; mode < 2; mode++) {
        dls_balance_params_init(&c.par);
        c.par.mode = mode ? DLS_BALANCE_CONSTANT : DLS_BALANCE_FUNCTIONAL;
        for (size_t i = 0; i < 4; i++)
            c.limits[i] = 600;
        c.par.limits = c.limits;
        balance_fresh(&c);
        printf("# balance allocation points (%s): create %ld", mode ? "constant" : "functional",
               fm_exhaust("balance create", do_balance_create, &c, NULL, DLS_OK));
        printf(" step %ld", fm_exhaust("balance step", do_balance_step, &c, balance_again,
                                       DLS_OK));
        printf(" second step %ld\n", fm_exhaust("balance second step", do_balance_step, &c,
                                                 balance_again, DLS_OK));
    }
    dls_balance_free(c.b);
    static const uint64_t before[4] = {250, 250, 250, 250}, after[4] = {100, 200, 400, 300};
    memcpy(c.before, before, sizeof before);
    memcpy(c.after, after, sizeof after);
    printf("# move plan allocation points: %ld\n",
           fm_exhaust("move plan", do_move_plan, &c, free_plan, DLS_OK));
}

TEST_MAIN("alloc_failures", test_allocation_failures, test_partition_allocation_failures,
          test_schedule_allocation_failures, test_lu_allocation_failures,
          test_mip_allocation_failures, test_import_allocation_failures,
          test_verify_allocation_failures, test_balance_allocation_failures)
