# tests/: the command-line suites (tests/tool/) and one cmocka program per library module,
# in folders that mirror src/. Shared support code lives in tests/support/.
AM_TESTS_ENVIRONMENT = \
	DLSCHED=$(top_builddir)/tool/dlsched; export DLSCHED; \
	srcdir=$(srcdir); export srcdir; \
	top_srcdir=$(top_srcdir); export top_srcdir; \
	PYTHON3='$(PYTHON3)'; export PYTHON3; \
	GLPSOL='$(GLPSOL)'; export GLPSOL; \
	CXX_FOR_TESTS='$(CXX_FOR_TESTS)'; export CXX_FOR_TESTS; \
	MPIEXEC='$(MPIEXEC_FOR_TESTS)'; export MPIEXEC; \
	MPI_CFLAGS_FOR_TESTS='$(MPI_CFLAGS_FOR_TESTS)'; export MPI_CFLAGS_FOR_TESTS; \
	MPI_SKIP_WHY='$(mpi_why)'; export MPI_SKIP_WHY; \
	DLS_STARPU_CALIBRATE='$(STARPU_CALIBRATE_FOR_TESTS)'; export DLS_STARPU_CALIBRATE; \
	DLS_STARPU_DISPLAY='$(STARPU_PERFMODEL_DISPLAY)'; export DLS_STARPU_DISPLAY; \
	DLS_STARPU_WHY='$(starpu_why)'; export DLS_STARPU_WHY; \
	DLS_GMP_WHY='$(gmp_why_tests)'; export DLS_GMP_WHY; \
	DLSCHED_SIMGRID='$(SIMGRID_FOR_TESTS)'; export DLSCHED_SIMGRID; \
	DLS_SIMGRID_WHY='$(simgrid_why)'; export DLS_SIMGRID_WHY; \
	DLS_SIMGRID_PLATFORMS=$${DLS_SIMGRID_PLATFORMS:-$(SIMGRID_PLATFORMS_FOR_TESTS)}; \
	export DLS_SIMGRID_PLATFORMS; \
	DLS_SMPI_BUILDDIR='$(SMPI_BUILDDIR_FOR_TESTS)'; export DLS_SMPI_BUILDDIR; \
	DLS_SMPI_WHY='$(smpi_why)'; export DLS_SMPI_WHY; \
	SMPIRUN='$(SMPIRUN)'; export SMPIRUN;

# The command-line suites share tests/support/cli.sh. The checks that need python3 (reading
# JSON and XML output) are the suites of their own named *_json.sh and *_xml.sh, reported as
# SKIP (exit 77) without it; tests/doc/schemas.sh, which checks the JSON Schemas of doc/schema/,
# also needs python3's jsonschema module.
CLI_TESTS = \
	tests/tool/cli_check.sh tests/tool/cli_check_json.sh tests/tool/cli_units.sh \
	tests/tool/cli_help.sh \
	tests/tool/cli_partition.sh tests/tool/cli_partition_json.sh \
	tests/tool/cli_partition_exact.sh tests/tool/cli_verify.sh tests/tool/cli_domain.sh tests/tool/cli_validate.sh \
	tests/tool/cli_schedule.sh tests/tool/cli_schedule_json.sh \
	tests/tool/cli_order.sh tests/tool/cli_order_json.sh \
	tests/tool/cli_bench.sh \
	tests/tool/cli_plot.sh tests/tool/cli_plot_xml.sh tests/tool/cli_gantt.sh \
	tests/tool/cli_lu.sh tests/tool/cli_lu_json.sh \
	tests/tool/cli_installments.sh tests/tool/cli_installments_json.sh \
	tests/tool/cli_installments_lp.sh \
	tests/tool/cli_crosscheck.sh tests/tool/cli_crosscheck_json.sh \
	tests/tool/cli_output.sh tests/tool/cli_warnings.sh tests/tool/cli_names.sh tests/tool/cli_differential.sh \
	tests/tool/run_example.sh \
	tests/import/starpu.sh tests/import/starpu_real.sh \
	tests/api/headers.sh tests/api/names.sh \
	tests/doc/man5.sh \
	tests/mpi/run_mpi.sh \
	tests/validation/suite_sample.sh tests/validation/certificates.sh \
	tests/doc/schemas.sh
TESTS = $(CLI_TESTS) $(TUTORIAL_TESTS)
EXTRA_DIST += $(CLI_TESTS) $(TUTORIAL_TESTS) tests/support/cli.sh tests/data tests/mpi/lsan.supp \
	tests/import/starpu_model.py tests/import/starpu_lib.sh tests/doc/validate.py

if HAVE_CMOCKA
UNIT_TESTS = \
	tests/core/test_status \
	tests/model/test_model \
	tests/model/test_model_shape \
	tests/platform/test_platform \
	tests/platform/test_domain \
	tests/io/test_platform_json \
	tests/io/test_json_locate \
	tests/io/test_platform_units \
	tests/import/test_starpu \
	tests/import/test_csv \
	tests/partition/test_partition \
	tests/partition/test_partition_weighted \
	tests/partition/test_partition_exact \
	tests/lu/test_lu \
	tests/measure/test_bench \
	tests/measure/test_bench_shapes \
	tests/measure/test_surface \
	tests/svg/test_plot \
	tests/schedule/test_schedule \
	tests/schedule/test_curve \
	tests/schedule/test_limits \
	tests/schedule/test_tolerance \
	tests/schedule/test_order_best \
	tests/verify/test_verify \
	tests/installment/test_installment \
	tests/check/test_crosscheck \
	tests/host/test_host \
	tests/api/test_api \
	tests/chain/test_chain_select \
	tests/solver/test_certificate \
	tests/solver/test_order_mip \
	tests/chain/test_chain_curve \
	tests/chain/test_chain_hard
if HAVE_LPSOLVE
UNIT_TESTS += tests/solver/test_lp_crosscheck tests/chain/test_chain_lp \
	tests/installment/test_installment_lp
endif
if SANITIZERS
# Suites whose random instances are many and slow under the sanitizers run fewer there.
SANITIZED_CPPFLAGS = -DTEST_SANITIZED
endif
if !SANITIZERS
# Replaces malloc to fail each allocation in turn; sanitizers replace it too.
UNIT_TESTS += tests/alloc/test_alloc_failures
endif
check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)

# Unit tests see the library's private headers too, and link the convenience library.
TEST_CPPFLAGS = $(LIB_CPPFLAGS) -I$(top_srcdir)/tests/support $(CMOCKA_CFLAGS) \
	-DTOP_SRCDIR='"$(abs_top_srcdir)"' -DGLPSOL='"$(GLPSOL)"'
TEST_LDADD = libdlsched_core.la $(CXX_RUNTIME_LIBS) $(CMOCKA_LIBS) -lm
TEST_SUPPORT = tests/support/testutil.h tests/support/failing_malloc.h tests/support/gen.h \
	tests/support/guard.h

tests_core_test_status_SOURCES = tests/core/test_status.c $(TEST_SUPPORT)
tests_core_test_status_CPPFLAGS = $(TEST_CPPFLAGS)
tests_core_test_status_LDADD = $(TEST_LDADD)
tests_model_test_model_SOURCES = tests/model/test_model.c $(TEST_SUPPORT)
tests_model_test_model_CPPFLAGS = $(TEST_CPPFLAGS)
tests_model_test_model_LDADD = $(TEST_LDADD)
tests_model_test_model_shape_SOURCES = tests/model/test_model_shape.c $(TEST_SUPPORT)
tests_model_test_model_shape_CPPFLAGS = $(TEST_CPPFLAGS)
tests_model_test_model_shape_LDADD = $(TEST_LDADD)
tests_platform_test_domain_SOURCES = tests/platform/test_domain.c $(TEST_SUPPORT)
tests_platform_test_domain_CPPFLAGS = $(TEST_CPPFLAGS)
tests_platform_test_domain_LDADD = $(TEST_LDADD)
tests_platform_test_platform_SOURCES = tests/platform/test_platform.c $(TEST_SUPPORT)
tests_platform_test_platform_CPPFLAGS = $(TEST_CPPFLAGS)
tests_platform_test_platform_LDADD = $(TEST_LDADD)
tests_io_test_platform_json_SOURCES = tests/io/test_platform_json.c $(TEST_SUPPORT)
tests_io_test_platform_json_CPPFLAGS = $(TEST_CPPFLAGS)
tests_io_test_platform_json_LDADD = $(TEST_LDADD)
tests_import_test_csv_SOURCES = tests/import/test_csv.c $(TEST_SUPPORT)
tests_import_test_csv_CPPFLAGS = $(TEST_CPPFLAGS)
tests_import_test_csv_LDADD = $(TEST_LDADD)
tests_io_test_platform_units_SOURCES = tests/io/test_platform_units.c $(TEST_SUPPORT)
tests_io_test_platform_units_CPPFLAGS = $(TEST_CPPFLAGS)
tests_io_test_platform_units_LDADD = $(TEST_LDADD)
tests_io_test_json_locate_SOURCES = tests/io/test_json_locate.c $(TEST_SUPPORT)
tests_io_test_json_locate_CPPFLAGS = $(TEST_CPPFLAGS) $(JANSSON_CFLAGS)
tests_io_test_json_locate_LDADD = $(TEST_LDADD)
tests_import_test_starpu_SOURCES = tests/import/test_starpu.c $(TEST_SUPPORT)
tests_import_test_starpu_CPPFLAGS = $(TEST_CPPFLAGS)
tests_import_test_starpu_LDADD = $(TEST_LDADD)
tests_partition_test_partition_SOURCES = tests/partition/test_partition.c $(TEST_SUPPORT)
tests_partition_test_partition_CPPFLAGS = $(TEST_CPPFLAGS)
tests_partition_test_partition_LDADD = $(TEST_LDADD)
tests_partition_test_partition_weighted_SOURCES = tests/partition/test_partition_weighted.c \
	$(TEST_SUPPORT)
tests_partition_test_partition_weighted_CPPFLAGS = $(TEST_CPPFLAGS)
tests_partition_test_partition_weighted_LDADD = $(TEST_LDADD)
tests_partition_test_partition_exact_SOURCES = tests/partition/test_partition_exact.c \
	$(TEST_SUPPORT)
tests_partition_test_partition_exact_CPPFLAGS = $(TEST_CPPFLAGS)
tests_partition_test_partition_exact_LDADD = $(TEST_LDADD)
tests_lu_test_lu_SOURCES = tests/lu/test_lu.c $(TEST_SUPPORT)
tests_lu_test_lu_CPPFLAGS = $(TEST_CPPFLAGS)
tests_lu_test_lu_LDADD = $(TEST_LDADD)
tests_measure_test_bench_shapes_SOURCES = tests/measure/test_bench_shapes.c $(TEST_SUPPORT)
tests_measure_test_bench_shapes_CPPFLAGS = $(TEST_CPPFLAGS)
tests_measure_test_bench_shapes_LDADD = $(TEST_LDADD)
tests_measure_test_bench_SOURCES = tests/measure/test_bench.c $(TEST_SUPPORT)
tests_measure_test_bench_CPPFLAGS = $(TEST_CPPFLAGS)
tests_measure_test_bench_LDADD = $(TEST_LDADD)
tests_measure_test_surface_SOURCES = tests/measure/test_surface.c $(TEST_SUPPORT)
tests_measure_test_surface_CPPFLAGS = $(TEST_CPPFLAGS)
tests_measure_test_surface_LDADD = $(TEST_LDADD)
tests_svg_test_plot_SOURCES = tests/svg/test_plot.c $(TEST_SUPPORT)
tests_svg_test_plot_CPPFLAGS = $(TEST_CPPFLAGS)
tests_svg_test_plot_LDADD = $(TEST_LDADD)
tests_schedule_test_curve_SOURCES = tests/schedule/test_curve.c $(TEST_SUPPORT)
tests_schedule_test_curve_CPPFLAGS = $(TEST_CPPFLAGS)
tests_schedule_test_curve_LDADD = $(TEST_LDADD)
tests_schedule_test_schedule_SOURCES = tests/schedule/test_schedule.c $(TEST_SUPPORT)
tests_schedule_test_schedule_CPPFLAGS = $(TEST_CPPFLAGS)
tests_schedule_test_schedule_LDADD = $(TEST_LDADD)
tests_schedule_test_limits_SOURCES = tests/schedule/test_limits.c $(TEST_SUPPORT)
tests_schedule_test_limits_CPPFLAGS = $(TEST_CPPFLAGS)
tests_schedule_test_limits_LDADD = $(TEST_LDADD)
tests_schedule_test_tolerance_SOURCES = tests/schedule/test_tolerance.c $(TEST_SUPPORT)
tests_schedule_test_tolerance_CPPFLAGS = $(TEST_CPPFLAGS)
tests_schedule_test_tolerance_LDADD = $(TEST_LDADD)
tests_schedule_test_order_best_SOURCES = tests/schedule/test_order_best.c $(TEST_SUPPORT)
tests_schedule_test_order_best_CPPFLAGS = $(TEST_CPPFLAGS) $(SANITIZED_CPPFLAGS)
tests_schedule_test_order_best_LDADD = $(TEST_LDADD)
tests_verify_test_verify_SOURCES = tests/verify/test_verify.c $(TEST_SUPPORT)
tests_verify_test_verify_CPPFLAGS = $(TEST_CPPFLAGS)
tests_verify_test_verify_LDADD = $(TEST_LDADD)
tests_installment_test_installment_SOURCES = tests/installment/test_installment.c $(TEST_SUPPORT)
tests_installment_test_installment_CPPFLAGS = $(TEST_CPPFLAGS)
tests_installment_test_installment_LDADD = $(TEST_LDADD)
tests_installment_test_installment_lp_SOURCES = tests/installment/test_installment_lp.c $(TEST_SUPPORT)
tests_installment_test_installment_lp_CPPFLAGS = $(TEST_CPPFLAGS)
tests_installment_test_installment_lp_LDADD = $(TEST_LDADD) $(LPSOLVE_LIBS)
tests_check_test_crosscheck_SOURCES = tests/check/test_crosscheck.c $(TEST_SUPPORT)
tests_check_test_crosscheck_CPPFLAGS = $(TEST_CPPFLAGS) $(SANITIZED_CPPFLAGS)
tests_check_test_crosscheck_LDADD = $(TEST_LDADD)
tests_api_test_api_SOURCES = tests/api/test_api.c $(TEST_SUPPORT)
tests_api_test_api_CPPFLAGS = $(TEST_CPPFLAGS)
tests_api_test_api_LDADD = $(TEST_LDADD)
# The host program's state: it calls GLPK itself, and threads.
tests_host_test_host_SOURCES = tests/host/test_host.c $(TEST_SUPPORT)
tests_host_test_host_CPPFLAGS = $(TEST_CPPFLAGS) $(GLPK_CFLAGS)
tests_host_test_host_LDADD = $(TEST_LDADD) $(GLPK_LIBS) $(PTHREAD_LIBS)
tests_solver_test_certificate_SOURCES = tests/solver/test_certificate.c $(TEST_SUPPORT)
tests_solver_test_certificate_CPPFLAGS = $(TEST_CPPFLAGS)
tests_solver_test_certificate_LDADD = $(TEST_LDADD)
tests_solver_test_order_mip_SOURCES = tests/solver/test_order_mip.c $(TEST_SUPPORT)
tests_solver_test_order_mip_CPPFLAGS = $(TEST_CPPFLAGS) $(SANITIZED_CPPFLAGS)
tests_solver_test_order_mip_LDADD = $(TEST_LDADD)
tests_solver_test_lp_crosscheck_SOURCES = tests/solver/test_lp_crosscheck.c $(TEST_SUPPORT)
tests_solver_test_lp_crosscheck_CPPFLAGS = $(TEST_CPPFLAGS)
tests_solver_test_lp_crosscheck_LDADD = $(TEST_LDADD) $(LPSOLVE_LIBS)
tests_chain_test_chain_lp_SOURCES = tests/chain/test_chain_lp.c tests/chain/chain_check.h \
	$(TEST_SUPPORT)
tests_chain_test_chain_lp_CPPFLAGS = $(TEST_CPPFLAGS)
tests_chain_test_chain_lp_LDADD = $(TEST_LDADD) $(LPSOLVE_LIBS)
tests_chain_test_chain_select_SOURCES = tests/chain/test_chain_select.c tests/chain/chain_check.h \
	$(TEST_SUPPORT)
tests_chain_test_chain_select_CPPFLAGS = $(TEST_CPPFLAGS) $(SANITIZED_CPPFLAGS)
tests_chain_test_chain_select_LDADD = $(TEST_LDADD)
tests_chain_test_chain_curve_SOURCES = tests/chain/test_chain_curve.c tests/chain/chain_check.h \
	$(TEST_SUPPORT)
tests_chain_test_chain_curve_CPPFLAGS = $(TEST_CPPFLAGS)
tests_chain_test_chain_curve_LDADD = $(TEST_LDADD)
tests_chain_test_chain_hard_SOURCES = tests/chain/test_chain_hard.c tests/chain/chain_check.h \
	$(TEST_SUPPORT)
tests_chain_test_chain_hard_CPPFLAGS = $(TEST_CPPFLAGS)
tests_chain_test_chain_hard_LDADD = $(TEST_LDADD)
tests_alloc_test_alloc_failures_SOURCES = tests/alloc/test_alloc_failures.c $(TEST_SUPPORT)
tests_alloc_test_alloc_failures_CPPFLAGS = $(TEST_CPPFLAGS)
tests_alloc_test_alloc_failures_LDADD = $(TEST_LDADD) $(JANSSON_LIBS)
else
check-local:
	@echo "WARNING: cmocka was not found at configure time: the unit tests were skipped"
endif

# The SimGrid replay's tests (SKIP without SimGrid); under the sanitizers 100 of the 500
# random platforms (each one a run of dlsched schedule and one of dlsched simulate).
if HAVE_SIMGRID
SIMGRID_FOR_TESTS = $(abs_top_builddir)/simgrid/dlsched-simgrid
else
SIMGRID_FOR_TESTS =
endif
if SANITIZERS
SIMGRID_PLATFORMS_FOR_TESTS = 100
else
SIMGRID_PLATFORMS_FOR_TESTS = 500
endif
TESTS += tests/simgrid/simulate.sh
EXTRA_DIST += tests/simgrid/simulate.sh

# The MPI layer under SMPI: the 8-node flow of smpi/flow.sh (SKIP without SMPI).
if HAVE_SMPI
SMPI_BUILDDIR_FOR_TESTS = $(abs_top_builddir)
else
SMPI_BUILDDIR_FOR_TESTS =
endif
TESTS += tests/simgrid/smpi_flow.sh
EXTRA_DIST += tests/simgrid/smpi_flow.sh

# The MPI layer's tests (tests/mpi/run_mpi.sh runs them under the launcher; SKIP without
# MPI). Plain C with their own checks: every rank checks, mpirun fails if one does.
if HAVE_MPI
MPIEXEC_FOR_TESTS = $(MPIEXEC)
# (-DDLS_MPI_PRESENT: never empty, so that the header check knows MPI is there; the
# *_SKIP_MPICXX: MPI's own deprecated C++ bindings are not ours to check)
MPI_CFLAGS_FOR_TESTS = $(MPI_CFLAGS) -DDLS_MPI_PRESENT -DOMPI_SKIP_MPICXX -DMPICH_SKIP_MPICXX
check_PROGRAMS += tests/mpi/test_mpi
tests_mpi_test_mpi_SOURCES = tests/mpi/test_mpi.c
tests_mpi_test_mpi_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CFLAGS)
tests_mpi_test_mpi_LDADD = libdlsched_mpi.la libdlsched.la $(MPI_LIBS) -lm
# a real executable, not libtool's wrapper script, for the launcher to start
tests_mpi_test_mpi_LDFLAGS = $(AM_LDFLAGS) -no-install
else
MPIEXEC_FOR_TESTS =
MPI_CFLAGS_FOR_TESTS =
endif

# StarPU (test-only): tests/import/starpu_calibrate writes real performance model files for
# tests/import/starpu_real.sh, which is skipped (with configure's reason) without it. Built
# without the sanitizers: StarPU's own allocations at exit are not ours to check.
if HAVE_STARPU
STARPU_CALIBRATE_FOR_TESTS = tests/import/starpu_calibrate
check_PROGRAMS += tests/import/starpu_calibrate
tests_import_starpu_calibrate_SOURCES = tests/import/starpu_calibrate.c
tests_import_starpu_calibrate_CPPFLAGS = $(STARPU_CFLAGS)
tests_import_starpu_calibrate_CFLAGS = $(WARN_CFLAGS)
tests_import_starpu_calibrate_LDADD = $(STARPU_LIBS)
# (linked without the sanitizers too: their leak checker would report StarPU's own allocations)
tests_import_starpu_calibrate_LDFLAGS =
else
STARPU_CALIBRATE_FOR_TESTS =
endif
