/* The API's conventions, held by tests (see the policy in include/dlsched/common.h):
 * - every parameter struct has the size it had when it was released, so that adding a
 *   parameter (taken from its reserved tail) never changes the ABI;
 * - every call refuses a parameter struct whose reserved bytes are not zero, and leaves
 *   its output untouched;
 * - every enumeration's names go both ways through its name and parse functions. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "testutil.h"
#include "gen.h"

/* The sizes, in bytes, on LP64 (x86_64, aarch64): a change here is an ABI break, which
 * needs a new major version (see configure.ac's libtool history). */
TEST(test_parameter_struct_sizes)
{
#if defined(__LP64__)
    assert_int_equal(sizeof(dls_envelope_params), 64);
    assert_int_equal(sizeof(dls_partition_params), 128);
    assert_int_equal(sizeof(dls_lu_params), 128);
    assert_int_equal(sizeof(dls_plot_params), 128);
    assert_int_equal(sizeof(dls_installment_params), 128);
    assert_int_equal(sizeof(dls_installment_gantt_params), 64);
    assert_int_equal(sizeof(dls_bench_params), 256);
    assert_int_equal(sizeof(dls_bench_surface_params), 512);
    assert_int_equal(sizeof(dls_blas_kernel_params), 64);
    assert_int_equal(sizeof(dls_schedule_params), 256);
    assert_int_equal(sizeof(dls_mip_params), 128);
    assert_int_equal(sizeof(dls_crosscheck_params), 512);
    assert_int_equal(sizeof(dls_verify_params), 112);
    assert_int_equal(sizeof(dls_synthetic_params), 256);
    assert_int_equal(sizeof(dls_simgrid_params), 64);
    /* records the library fills */
    assert_int_equal(sizeof(dls_schedule_mip_info), 128);
    assert_int_equal(sizeof(dls_schedule_solver_info), 128);
    assert_int_equal(sizeof(dls_installment_analysis), 1264);
    assert_int_equal(sizeof(dls_verify_quality), 168);
    assert_int_equal(sizeof(dls_bench_summary), 256);
    assert_int_equal(sizeof(dls_error), 664);
    assert_int_equal(sizeof(dls_kernel), 96);
    assert_int_equal(sizeof(dls_envelope_info), 64);
    assert_int_equal(sizeof(dls_installment_levels), 64);
    assert_int_equal(sizeof(dls_shape_issue), 64);
    assert_int_equal(sizeof(dls_installment_event), 96);
    assert_int_equal(sizeof(dls_bench_point), 128);
    assert_int_equal(sizeof(dls_installment_lp_info), 168);
    assert_int_equal(sizeof(dls_installment_rounds_info), 104);
    assert_int_equal(sizeof(dls_installment_sweep_info), 88);
#else
    skip(); /* the sizes are those of LP64 platforms */
#endif
}

/* Every init function clears the reserved bytes. */
TEST(test_init_clears_the_reserved_bytes)
{
#define CLEARED(type, init)                                                                \
    do {                                                                                   \
        type p_;                                                                           \
        memset(&p_, 0xa5, sizeof p_);                                                      \
        init(&p_);                                                                         \
        assert_reserved_zero(p_);                                                          \
    } while (0)
    CLEARED(dls_envelope_params, dls_envelope_params_init);
    CLEARED(dls_partition_params, dls_partition_params_init);
    CLEARED(dls_lu_params, dls_lu_params_init);
    CLEARED(dls_plot_params, dls_plot_params_init);
    CLEARED(dls_installment_params, dls_installment_params_init);
    CLEARED(dls_installment_gantt_params, dls_installment_gantt_params_init);
    CLEARED(dls_bench_params, dls_bench_params_init);
    CLEARED(dls_bench_surface_params, dls_bench_surface_params_init);
    CLEARED(dls_blas_kernel_params, dls_blas_kernel_params_init);
    CLEARED(dls_schedule_params, dls_schedule_params_init);
    CLEARED(dls_mip_params, dls_mip_params_init);
    CLEARED(dls_crosscheck_params, dls_crosscheck_params_init);
    CLEARED(dls_verify_params, dls_verify_params_init);
    CLEARED(dls_synthetic_params, dls_synthetic_params_init);
    CLEARED(dls_simgrid_params, dls_simgrid_params_init);
#undef CLEARED
}

/* A reserved byte set: the call fails with DLS_EINVAL naming the struct, and its output is
 * untouched. */
TEST(test_reserved_bytes_are_refused)
{
    dls_error err;
    dls_platform *pl = test_example("star_cluster.json");
    void *const sentinel = (void *)&err;
    {
        dls_partition_params p;
        dls_partition_params_init(&p);
        p.reserved[sizeof p.reserved - 1] = 1;
        dls_partition *r = sentinel;
        assert_fails(dls_partition_solve(pl, 1000, &p, &r, &err), DLS_EINVAL, &err,
                     "dls_partition_solve: the reserved bytes of dls_partition_params");
        assert_ptr_equal(r, sentinel);
    }
    {
        dls_lu_params p;
        dls_lu_params_init(&p);
        p.reserved[0] = 1;
        dls_lu *r = sentinel;
        assert_fails(dls_lu_distribute(pl, 100, &p, &r, &err), DLS_EINVAL, &err,
                     "dls_lu_params_init()");
        assert_ptr_equal(r, sentinel);
    }
    {
        dls_plot_params p;
        dls_plot_params_init(&p);
        p.reserved[3] = 7;
        char *svg = sentinel;
        assert_fails(dls_plot_to_string(pl, &p, &svg, &err), DLS_EINVAL, &err,
                     "dls_plot_params");
        assert_ptr_equal(svg, sentinel);
    }
    {
        dls_envelope_params p;
        dls_envelope_params_init(&p);
        p.reserved[5] = 1;
        dls_model *m = sentinel;
        assert_fails(dls_model_convex_envelope(dls_platform_model(pl, 0), 1e6, &p, &m, NULL,
                                               &err),
                     DLS_EINVAL, &err, "dls_envelope_params");
        assert_ptr_equal(m, sentinel);
    }
    {
        dls_installment_params p;
        dls_installment_params_init(&p);
        p.reserved[0] = 1;
        dls_installment *s = sentinel;
        assert_fails(dls_installment_simulate(pl, 1e6, 1e4, &p, &s, &err), DLS_EINVAL, &err,
                     "dls_installment_params");
        assert_ptr_equal(s, sentinel);
    }
    {
        dls_blas_kernel_params p;
        dls_blas_kernel_params_init(&p);
        p.reserved[1] = 1;
        dls_kernel k;
        memset(&k, 0, sizeof k);
        assert_fails(dls_blas_kernel_create(DLS_KERNEL_GEMM_ROWS, &p, &k, &err), DLS_EINVAL,
                     &err, "dls_blas_kernel_params");
        assert_null(k.run);
    }
    {
        dls_schedule_params p;
        dls_schedule_params_init(&p);
        p.reserved[60] = 1;
        dls_schedule *s = sentinel;
        assert_fails(dls_schedule_solve(pl, 1e6, &p, &s, &err), DLS_EINVAL, &err,
                     "dls_schedule_solve: the reserved bytes of dls_schedule_params");
        assert_ptr_equal(s, sentinel);
        dls_schedule_params_init(&p);
        p.envelope.reserved[0] = 1;
        assert_fails(dls_schedule_solve(pl, 1e6, &p, &s, &err), DLS_EINVAL, &err,
                     "dls_schedule_solve: the reserved bytes of dls_envelope_params");
        assert_ptr_equal(s, sentinel);
    }
    {
        dls_mip_params p;
        dls_mip_params_init(&p);
        p.reserved[0] = 1;
        dls_schedule *s = sentinel;
        assert_fails(dls_schedule_solve_mip(pl, 1e6, NULL, &p, &s, &err), DLS_EINVAL, &err,
                     "dls_schedule_solve_mip: the reserved bytes of dls_mip_params");
        assert_ptr_equal(s, sentinel);
    }
    {
        dls_crosscheck_params p;
        dls_crosscheck_params_init(&p);
        p.reserved[7] = 1;
        dls_crosscheck *c = sentinel;
        assert_fails(dls_crosscheck_run(pl, 1e6, &p, &c, &err), DLS_EINVAL, &err,
                     "dls_crosscheck_run: the reserved bytes of dls_crosscheck_params");
        assert_ptr_equal(c, sentinel);
        dls_crosscheck_params_init(&p);
        p.mip.reserved[3] = 1;
        assert_fails(dls_crosscheck_run(pl, 1e6, &p, &c, &err), DLS_EINVAL, &err,
                     "dls_crosscheck_run: the reserved bytes of dls_mip_params");
        assert_ptr_equal(c, sentinel);
    }
    dls_platform_free(pl);
}

/* Constructors return a status with an out parameter; a lookup answers yes or no. */
TEST(test_constructor_and_lookup)
{
    dls_error err;
    assert_fails(dls_platform_create(NULL, &err), DLS_EINVAL, &err, "dls_platform_create");
    dls_platform *pl = NULL;
    assert_ok(dls_platform_create(&pl, &err), &err);
    assert_int_equal(dls_platform_count(pl), 0);
    size_t i = 77;
    assert_false(dls_platform_find(pl, "a", &i));
    assert_int_equal(i, 77);
    dls_model *m = NULL;
    assert_ok(dls_model_create_constant(2, &m, &err), &err);
    test_add(pl, "a", m);
    assert_true(dls_platform_find(pl, "a", &i));
    assert_int_equal(i, 0);
    assert_true(dls_platform_find(pl, "a", NULL));
    assert_false(dls_platform_find(pl, NULL, &i));
    assert_false(dls_platform_find(NULL, "a", &i));
    dls_platform_free(pl);
}

/* One kind getter and one info record for what only some schedules have. */
TEST(test_schedule_kinds)
{
    dls_error err;
    dls_platform *pl = test_example("star_two.json");
    dls_schedule *s = NULL;
    dls_schedule_mip_info mi;
    memset(&mi, 0x5a, sizeof mi);
    unsigned char before[sizeof mi];
    memcpy(before, &mi, sizeof mi);
    assert_ok(dls_schedule_solve(pl, 2, NULL, &s, &err), &err);
    assert_int_equal(dls_schedule_get_kind(s), DLS_SCHEDULE_LP);
    assert_false(dls_schedule_exact_confirmed(s));
    assert_fails(dls_schedule_get_mip_info(s, &mi, &err), DLS_EINVAL, &err, "\"lp\"");
    assert_memory_equal(&mi, before, sizeof mi);
    dls_schedule_free(s);
    const double loads[] = {1, 1};
    assert_ok(dls_schedule_evaluate(pl, loads, NULL, &s, &err), &err);
    assert_int_equal(dls_schedule_get_kind(s), DLS_SCHEDULE_EVALUATED);
    assert_fails(dls_schedule_get_mip_info(s, &mi, &err), DLS_EINVAL, &err, "\"evaluated\"");
    dls_schedule_free(s);
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.exact = 1;
    par.solver = DLS_SOLVER_GLPK;
    assert_ok(dls_schedule_solve(pl, 2, &par, &s, &err), &err);
    assert_true(dls_schedule_exact_confirmed(s));
    dls_schedule_solver_info si;
    assert_ok(dls_schedule_get_solver_info(s, &si, &err), &err);
    assert_int_equal(si.solver, DLS_SOLVER_GLPK);
    assert_reserved_zero(si);
    assert_fails(dls_schedule_get_solver_info(s, NULL, &err), DLS_EINVAL, &err, "NULL");
    dls_schedule_free(s);
    /* the solver record belongs to dls_schedule_solve's schedules, and feasible ones */
    assert_ok(dls_schedule_evaluate(pl, loads, NULL, &s, &err), &err);
    memset(&si, 0x5a, sizeof si);
    unsigned char si_before[sizeof si];
    memcpy(si_before, &si, sizeof si);
    assert_fails(dls_schedule_get_solver_info(s, &si, &err), DLS_EINVAL, &err, "\"evaluated\"");
    assert_memory_equal(&si, si_before, sizeof si);
    dls_schedule_free(s);
    dls_platform *small = test_platform_json("{\"processors\": [{\"name\": \"a\", "
                                             "\"speed\": 1, \"limit\": 1}]}");
    assert_ok(dls_schedule_solve(small, 2, NULL, &s, &err), &err);
    assert_int_equal(dls_schedule_status(s), DLS_SOLUTION_INFEASIBLE);
    assert_fails(dls_schedule_get_solver_info(s, &si, &err), DLS_EINVAL, &err, "infeasible");
    dls_schedule_free(s);
    dls_platform_free(small);
    assert_ok(dls_schedule_solve_integer(pl, 2, NULL, NULL, &s, &err), &err);
    assert_int_equal(dls_schedule_get_kind(s), DLS_SCHEDULE_INTEGER);
    assert_ok(dls_schedule_get_mip_info(s, &mi, &err), &err);
    assert_int_equal(mi.mip_status, DLS_SOLUTION_NONE);
    assert_rel(mi.lp_makespan, 5.75, 1e-9);
    assert_reserved_zero(mi);
    dls_schedule_free(s);
    dls_mip_params mp;
    dls_mip_params_init(&mp);
    assert_ok(dls_schedule_solve_mip(pl, 2, NULL, &mp, &s, &err), &err);
    assert_int_equal(dls_schedule_get_kind(s), DLS_SCHEDULE_MIP);
    assert_ok(dls_schedule_get_mip_info(s, &mi, &err), &err);
    assert_int_equal(mi.mip_status, DLS_SOLUTION_OPTIMAL);
    assert_true(isnan(mi.rounded_makespan));
    assert_fails(dls_schedule_get_mip_info(s, NULL, &err), DLS_EINVAL, &err, "NULL");
    dls_schedule_free(s);
    dls_platform_free(pl);
}

/* Messages of code shared by several calls start with the public call's name. */
TEST(test_message_prefix)
{
    dls_error err;
    dls_platform *pl = test_example("star_two.json");
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.check_tol = 1;
    dls_schedule *s = NULL;
    const char *calls[] = {"dls_schedule_solve: check_tol", "dls_schedule_solve_integer: check_tol",
                           "dls_schedule_solve_mip: check_tol"};
    assert_fails(dls_schedule_solve(pl, 2, &par, &s, &err), DLS_EINVAL, &err, calls[0]);
    assert_fails(dls_schedule_solve_integer(pl, 2, &par, NULL, &s, &err), DLS_EINVAL, &err,
                 calls[1]);
    assert_fails(dls_schedule_solve_mip(pl, 2, &par, NULL, &s, &err), DLS_EINVAL, &err,
                 calls[2]);
    assert_int_equal(strncmp(err.message, "dls_schedule_solve_mip: ", 24), 0);
    dls_mip_params mp;
    dls_mip_params_init(&mp);
    mp.shape_tol = 0;
    assert_fails(dls_schedule_solve_mip(pl, 2, NULL, &mp, &s, &err), DLS_EINVAL, &err,
                 "dls_schedule_solve_mip: shape_tol");
    dls_lu_params lp;
    dls_lu_params_init(&lp);
    dls_lu *lu = NULL;
    assert_fails(dls_lu_distribute(pl, 0, &lp, &lu, &err), DLS_EINVAL, &err,
                 "dls_lu_distribute: ");
    assert_null(s);
    dls_platform_free(pl);
}

/* The error's origin: the public call that failed, set with the message; a module's word
 * inside gives way to it, another public call's name stays after it. */
TEST(test_error_origin)
{
    dls_error err;
    dls_error_clear(&err);
    assert_string_equal(err.origin, "");
    dls_platform *pl = test_example("star_two.json");
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.check_tol = 1;
    dls_schedule *s = NULL;
    assert_fails(dls_schedule_solve_mip(pl, 2, &par, NULL, &s, &err), DLS_EINVAL, &err,
                 "dls_schedule_solve_mip: check_tol");
    assert_string_equal(err.origin, "dls_schedule_solve_mip");
    dls_lu_params lp;
    dls_lu_params_init(&lp);
    dls_lu *lu = NULL;
    assert_fails(dls_lu_distribute(pl, 0, &lp, &lu, &err), DLS_EINVAL, &err,
                 "dls_lu_distribute: ");
    assert_string_equal(err.origin, "dls_lu_distribute");
    assert_reserved_zero(err);
    dls_platform_free(pl);
}

/* The names before issue 37's renames still link and answer as the new ones. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
TEST(test_deprecated_names)
{
    dls_error err;
    dls_platform *pl = test_example("star_two.json");
    char *a = NULL, *b = NULL;
    assert_ok(dls_platform_to_simgrid(pl, NULL, &a, &err), &err);
    assert_ok(dls_platform_simgrid_to_string(pl, NULL, &b, &err), &err);
    assert_string_equal(a, b);
    dls_free(a);
    dls_free(b);
    assert_fails(dls_export_csv(pl, 5, &a, &err), DLS_EINVAL, &err,
                 "dls_platform_csv_to_string: processor 5 is out of range");
    assert_fails(dls_export_starpu(pl, 5, NULL, &a, &err), DLS_EINVAL, &err,
                 "dls_platform_starpu_to_string: ");
    assert_fails(dls_installment_lp(NULL, 1, NULL, NULL, &err), DLS_EINVAL, &err,
                 "dls_installment_solve_lp: NULL argument");
    assert_true(isnan(dls_claim_get_makespan(NULL)));
    assert_true(isnan(dls_claim_get_total(NULL)));
    assert_true(isnan(dls_claim_get_chunk(NULL)));
    size_t m = 9;
    assert_null(dls_claim_get_order(NULL, &m));
    assert_int_equal(m, 0);
    dls_kernel k;
    dls_synthetic_params sp;
    dls_synthetic_params_init(&sp);
    assert_ok(dls_synthetic_kernel_create(&sp, &k, &err), &err);
    dls_synthetic_kernel_free(&k);
    assert_null(k.data);
    dls_synthetic_kernel_free(&k); /* twice: nothing left to free */
    dls_platform_free(pl);
}
#pragma GCC diagnostic pop

/* One free for every kernel; the caller's own kernel is left as it is. */
TEST(test_kernel_free)
{
    dls_error err;
    dls_kernel k;
    dls_synthetic_params sp;
    dls_synthetic_params_init(&sp);
    assert_ok(dls_synthetic_kernel_create(&sp, &k, &err), &err);
    assert_non_null(k.release);
    dls_kernel_free(&k);
    assert_null(k.data);
    assert_null(k.release);
    dls_kernel_free(&k);
    dls_kernel_free(NULL);
    int mine = 0;
    dls_kernel own = {.name = "own", .data = &mine};
    dls_kernel_free(&own);
    assert_ptr_equal(own.data, &mine);
}

/* Progress callbacks: a cancel stops the call with DLS_ECANCELED and no result. */
static int count_then_cancel(double fraction, void *data)
{
    int *calls = data;
    assert_true(fraction >= 0 && fraction <= 1);
    return ++*calls >= 2;
}

TEST(test_progress_cancels)
{
    dls_error err;
    dls_platform *pl = test_example("star_cluster.json");
    int calls = 0;
    dls_installment_params ip;
    dls_installment_params_init(&ip);
    ip.progress = count_then_cancel;
    ip.progress_data = &calls;
    dls_installment *inst = NULL;
    assert_fails(dls_installment_sweep(pl, 1e7, &ip, &inst, &err), DLS_ECANCELED, &err,
                 "dls_installment_sweep: canceled");
    assert_int_equal(calls, 2);
    assert_null(inst);
    dls_platform_free(pl);

    /* an LP of some thousands of processors (GLPK reports every 0.2 s of simplex work) */
    test_rng rng;
    test_rng_init(&rng, 11);
    pl = gen_star(&rng, 4000, 2, 1e6, 0);
    dls_schedule_params sp;
    dls_schedule_params_init(&sp);
    sp.drop_unused = 0;
    sp.progress = count_then_cancel;
    sp.progress_data = &calls;
    calls = 0;
    dls_schedule *lp = NULL;
    dls_status lst = dls_schedule_solve(pl, 1e6, &sp, &lp, &err);
    printf("# the LP's progress callback: %d calls\n", calls);
    if (calls >= 2) {
        assert_int_equal(lst, DLS_ECANCELED);
        assert_non_null(strstr(err.message, "dls_schedule_solve: canceled"));
        assert_null(lp);
    } else {
        assert_ok(lst, &err); /* solved before a second report */
        dls_schedule_free(lp);
    }
    dls_platform_free(pl);

    /* a MIP that branch and bound cannot close quickly (32 processors, small whole load) */
    test_rng_init(&rng, 12);
    pl = gen_star(&rng, 32, 3, 1000, 0);
    dls_mip_params mp;
    dls_mip_params_init(&mp);
    mp.integer = 1;
    mp.time_limit = 30;
    mp.progress = count_then_cancel;
    mp.progress_data = &calls;
    calls = 0;
    dls_schedule *s = NULL;
    dls_status st = dls_schedule_solve_integer(pl, 1000, NULL, &mp, &s, &err);
    printf("# the MIP's progress callback: %d calls\n", calls);
    if (calls >= 2) {
        assert_int_equal(st, DLS_ECANCELED);
        assert_non_null(strstr(err.message, "dls_schedule_solve_integer: canceled"));
        assert_null(s);
    } else {
        assert_ok(st, &err); /* finished before a second report */
        dls_schedule_free(s);
    }
    dls_platform_free(pl);
}


/* name -> value -> name, for every value of every list; unknown values and names. */
#define ROUND_TRIP(type, fn, MAP)                                                          \
    do {                                                                                   \
        static const int values_[] = {MAP(VALUE_)};                                        \
        for (size_t k_ = 0; k_ < sizeof values_ / sizeof values_[0]; k_++) {               \
            type back_;                                                                    \
            const char *name_ = fn##_name((type)values_[k_]);                              \
            assert_string_not_equal(name_, "unknown");                                     \
            assert_int_equal(fn##_from_name(name_, &back_), DLS_OK);                       \
            assert_int_equal((int)back_, values_[k_]);                                     \
        }                                                                                  \
        type untouched_ = (type)values_[0];                                                \
        assert_string_equal(fn##_name((type)987654), "unknown");                           \
        assert_int_equal(fn##_from_name("no such name", &untouched_), DLS_EINVAL);         \
        assert_int_equal(fn##_from_name(NULL, &untouched_), DLS_EINVAL);                   \
        assert_int_equal(fn##_from_name(fn##_name((type)values_[0]), NULL), DLS_EINVAL);  \
        assert_int_equal((int)untouched_, values_[0]);                                     \
    } while (0)
#define VALUE_(name, value, text) value,

TEST(test_enumeration_names)
{
    ROUND_TRIP(dls_solution_status, dls_solution_status, DLS_SOLUTION_STATUS_MAP);
    ROUND_TRIP(dls_model_kind, dls_model_kind, DLS_MODEL_KIND_MAP);
    ROUND_TRIP(dls_partition_method, dls_partition_method, DLS_PARTITION_METHOD_MAP);
    ROUND_TRIP(dls_partition_exact, dls_partition_exact, DLS_PARTITION_EXACT_MAP);
    ROUND_TRIP(dls_lu_algorithm, dls_lu_algorithm, DLS_LU_ALGORITHM_MAP);
    ROUND_TRIP(dls_lu_heuristic, dls_lu_heuristic, DLS_LU_HEURISTIC_MAP);
    ROUND_TRIP(dls_bench_stop, dls_bench_stop, DLS_BENCH_STOP_MAP);
    ROUND_TRIP(dls_blas_kernel_kind, dls_blas_kernel_kind, DLS_BLAS_KERNEL_KIND_MAP);
    ROUND_TRIP(dls_installment_reason, dls_installment_reason, DLS_INSTALLMENT_REASON_MAP);
    ROUND_TRIP(dls_installment_role, dls_installment_role, DLS_INSTALLMENT_ROLE_MAP);
    ROUND_TRIP(dls_plot_scale, dls_plot_scale, DLS_PLOT_SCALE_MAP);
    ROUND_TRIP(dls_send_order, dls_send_order, DLS_SEND_ORDER_MAP);
    ROUND_TRIP(dls_export_format, dls_export_format, DLS_EXPORT_FORMAT_MAP);
    ROUND_TRIP(dls_schedule_kind, dls_schedule_kind, DLS_SCHEDULE_KIND_MAP);
    ROUND_TRIP(dls_check_kind, dls_check_kind, DLS_CHECK_KIND_MAP);
    /* the statuses: their symbols */
    dls_status st;
    assert_int_equal(dls_status_from_name("EWRITE", &st), DLS_OK);
    assert_int_equal(st, DLS_EWRITE);
    assert_string_equal(dls_status_name(DLS_ECANCELED), "ECANCELED");
    assert_int_equal(dls_status_from_name("ENOPE", &st), DLS_EINVAL);
    assert_int_equal(st, DLS_EWRITE);
}

/* dls_write_output: the writer every output of dlsched uses, for the caller's own files. */
TEST(test_write_output)
{
    dls_error err;
    char dir[] = "/tmp/dlsched-out-XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/f.txt", dir);
    assert_ok(dls_write_output(path, "abc\n", 4, &err), &err);
    FILE *f = fopen(path, "r");
    char got[8] = "";
    assert_non_null(f);
    assert_non_null(fgets(got, sizeof got, f));
    fclose(f);
    assert_string_equal(got, "abc\n");
    assert_ok(dls_write_output(path, NULL, 0, &err), &err); /* an empty file */
    assert_fails(dls_write_output(path, NULL, 3, &err), DLS_EINVAL, &err,
                 "dls_write_output: NULL data");
    assert_fails(dls_write_output("", "x", 1, &err), DLS_EINVAL, &err, "dls_write_output: ");
    assert_fails(dls_write_output(dir, "x", 1, &err), DLS_EIO, &err, "is a directory");
    assert_int_equal(unlink(path), 0);
    assert_int_equal(rmdir(dir), 0);
}

TEST_MAIN("api", test_parameter_struct_sizes, test_init_clears_the_reserved_bytes,
          test_reserved_bytes_are_refused, test_enumeration_names, test_constructor_and_lookup,
          test_schedule_kinds, test_message_prefix, test_error_origin, test_deprecated_names, test_kernel_free,
          test_progress_cancels, test_write_output)
