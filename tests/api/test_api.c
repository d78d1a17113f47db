/* The API's conventions, held by tests (see the policy in include/dlsched/common.h):
 * - every parameter struct has the size it had when it was released, so that adding a
 *   parameter (taken from its reserved tail) never changes the ABI;
 * - every call refuses a parameter struct whose reserved bytes are not zero, and leaves
 *   its output untouched;
 * - every enumeration's names go both ways through its name and parse functions. */
#include <config.h>

#include "testutil.h"

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
        for (size_t k_ = 0; k_ < sizeof p_.reserved; k_++)                                 \
            assert_int_equal(p_.reserved[k_], 0);                                          \
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
    ROUND_TRIP(dls_lu_algorithm, dls_lu_algorithm, DLS_LU_ALGORITHM_MAP);
    ROUND_TRIP(dls_lu_heuristic, dls_lu_heuristic, DLS_LU_HEURISTIC_MAP);
    ROUND_TRIP(dls_bench_stop, dls_bench_stop, DLS_BENCH_STOP_MAP);
    ROUND_TRIP(dls_blas_kernel_kind, dls_blas_kernel_kind, DLS_BLAS_KERNEL_KIND_MAP);
    ROUND_TRIP(dls_installment_reason, dls_installment_reason, DLS_INSTALLMENT_REASON_MAP);
    ROUND_TRIP(dls_installment_role, dls_installment_role, DLS_INSTALLMENT_ROLE_MAP);
    ROUND_TRIP(dls_plot_scale, dls_plot_scale, DLS_PLOT_SCALE_MAP);
    /* the statuses: their symbols */
    dls_status st;
    assert_int_equal(dls_status_from_name("EWRITE", &st), DLS_OK);
    assert_int_equal(st, DLS_EWRITE);
    assert_string_equal(dls_status_name(DLS_ECANCELED), "ECANCELED");
    assert_int_equal(dls_status_from_name("ENOPE", &st), DLS_EINVAL);
    assert_int_equal(st, DLS_EWRITE);
}

TEST_MAIN("api", test_parameter_struct_sizes, test_init_clears_the_reserved_bytes,
          test_reserved_bytes_are_refused, test_enumeration_names)
