# tests/: the command-line suites (tests/tool/) and one cmocka program per library module,
# in folders that mirror src/. Shared support code lives in tests/support/.
# The suites' environment, grouped by what needs it; the last lines export it all.
AM_TESTS_ENVIRONMENT = \
	DLSCHED=$(top_builddir)/tool/dlsched srcdir=$(srcdir) top_srcdir=$(top_srcdir); \
	PYTHON3='$(PYTHON3)' GLPSOL='$(GLPSOL)' CXX_FOR_TESTS='$(CXX_FOR_TESTS)'; \
	MPIEXEC='$(MPIEXEC_FOR_TESTS)' MPI_CFLAGS_FOR_TESTS='$(MPI_CFLAGS_FOR_TESTS)' MPI_SKIP_WHY='$(mpi_why)'; \
	DLS_STARPU_CALIBRATE='$(STARPU_CALIBRATE_FOR_TESTS)' DLS_STARPU_WHY='$(starpu_why)' \
	DLS_STARPU_DISPLAY='$(STARPU_PERFMODEL_DISPLAY)' DLS_GMP_WHY='$(gmp_why_tests)'; \
	DLSCHED_SIMGRID='$(SIMGRID_FOR_TESTS)' DLS_SIMGRID_WHY='$(simgrid_why)' \
	DLS_SIMGRID_PLATFORMS=$${DLS_SIMGRID_PLATFORMS:-$(SIMGRID_PLATFORMS_FOR_TESTS)}; \
	DLS_SMPI_BUILDDIR='$(SMPI_BUILDDIR_FOR_TESTS)' DLS_SMPI_WHY='$(smpi_why)' SMPIRUN='$(SMPIRUN)'; \
	DLS_PYTHON='$(DLS_PYTHON_FOR_TESTS)' DLS_PYTEST='$(PYTEST_FOR_TESTS)' DLS_PYTHON_WHY='$(python_why)'; \
	export DLSCHED srcdir top_srcdir PYTHON3 GLPSOL CXX_FOR_TESTS MPIEXEC MPI_CFLAGS_FOR_TESTS \
	MPI_SKIP_WHY DLS_STARPU_CALIBRATE DLS_STARPU_DISPLAY DLS_STARPU_WHY DLS_GMP_WHY \
	DLSCHED_SIMGRID DLS_SIMGRID_WHY DLS_SIMGRID_PLATFORMS DLS_SMPI_BUILDDIR DLS_SMPI_WHY SMPIRUN \
	DLS_PYTHON DLS_PYTEST DLS_PYTHON_WHY;

# The command-line suites share tests/support/cli.sh. The checks that need python3 (reading
# JSON and XML output) are the suites of their own named *_json.sh and *_xml.sh, reported as
# SKIP (exit 77) without it; tests/doc/schemas.sh, which checks the JSON Schemas of doc/schema/,
# also needs python3's jsonschema module.
CLI_TESTS = \
	tests/tool/cli_check.sh tests/tool/cli_check_json.sh tests/tool/cli_units.sh \
	tests/tool/cli_help.sh \
	tests/tool/cli_partition.sh tests/tool/cli_partition_json.sh \
	tests/tool/cli_partition_exact.sh tests/tool/cli_verify.sh tests/tool/cli_domain.sh tests/tool/cli_validate.sh \
	tests/tool/cli_balance.sh \
	tests/tool/cli_schedule.sh tests/tool/cli_schedule_json.sh \
	tests/tool/cli_order.sh tests/tool/cli_order_json.sh \
	tests/tool/cli_bench.sh \
	tests/tool/cli_plot.sh tests/tool/cli_plot_xml.sh tests/tool/cli_gantt.sh \
	tests/tool/cli_lu.sh tests/tool/cli_lu_json.sh \
	tests/tool/cli_installments.sh tests/tool/cli_installments_json.sh \
	tests/tool/cli_installments_lp.sh \
	tests/tool/cli_crosscheck.sh tests/tool/cli_crosscheck_json.sh \
	tests/tool/cli_output.sh tests/tool/cli_warnings.sh tests/tool/cli_names.sh tests/tool/cli_name_lists.sh tests/tool/cli_differential.sh \
	tests/tool/run_example.sh \
	tests/import/starpu.sh tests/import/starpu_real.sh \
	tests/api/headers.sh tests/api/names.sh \
	tests/doc/man5.sh tests/doc/man_options.sh \
	tests/mpi/run_mpi.sh \
	tests/validation/suite_sample.sh tests/validation/certificates.sh \
	tests/doc/schemas.sh
TESTS = $(CLI_TESTS) $(TUTORIAL_TESTS)
EXTRA_DIST += $(CLI_TESTS) $(TUTORIAL_TESTS) tests/support/cli.sh tests/data tests/mpi/lsan.supp \
	tests/chain/chain_check.h tests/support/unit_tests_mk.sh \
	tests/import/starpu_model.py tests/import/starpu_lib.sh tests/doc/validate.py

if HAVE_CMOCKA
UNIT_TESTS = \
	tests/core/test_status \
	tests/core/test_heap \
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
	tests/balance/test_plan \
	tests/balance/test_balance \
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
# (TEST_SANITIZED matters only to the suites that test for it.)
TEST_CPPFLAGS = $(LIB_CPPFLAGS) -I$(top_srcdir)/tests/support $(CMOCKA_CFLAGS) \
	-DTOP_SRCDIR='"$(abs_top_srcdir)"' -DGLPSOL='"$(GLPSOL)"' $(SANITIZED_CPPFLAGS)
TEST_LDADD = libdlsched_core.la $(CXX_RUNTIME_LIBS) $(CMOCKA_LIBS) -lm
TEST_SUPPORT = tests/support/testutil.h tests/support/failing_malloc.h tests/support/gen.h \
	tests/support/solver_output.h tests/support/xoshiro.h \
	tests/support/guard.h tests/support/star_build.h tests/support/lpsolve_read.h

# Each program's _SOURCES, _CPPFLAGS and _LDADD (the defaults above) are generated from
# the files tests/*/test_*.c by tests/support/unit_tests_mk.sh; here only what one program
# needs beyond them.
include $(srcdir)/tests/unit_tests.mk
tests_io_test_json_locate_CPPFLAGS += $(JANSSON_CFLAGS)
tests_installment_test_installment_lp_LDADD += $(LPSOLVE_LIBS)
tests_solver_test_lp_crosscheck_LDADD += $(LPSOLVE_LIBS)
tests_chain_test_chain_lp_LDADD += $(LPSOLVE_LIBS)
# The host program's state: it calls GLPK itself, and threads.
tests_host_test_host_CPPFLAGS += $(GLPK_CFLAGS)
tests_host_test_host_LDADD += $(GLPK_LIBS) $(PTHREAD_LIBS)
tests_alloc_test_alloc_failures_LDADD += $(JANSSON_LIBS)
CMOCKA_NOTE = :
else
CMOCKA_NOTE = echo "WARNING: cmocka was not found at configure time: the unit tests were skipped"
endif

# Each suite's wall time goes into its .trs file (tests/support/timed_driver.sh around
# automake's driver); make check then lists the slowest 15 of the suites it ran, and
# `make check-times` lists them all again from the last run.
LOG_DRIVER = $(SHELL) $(top_srcdir)/tests/support/timed_driver.sh \
	$(SHELL) $(top_srcdir)/build-aux/test-driver
EXTRA_DIST += build-aux/test-driver tests/support/timed_driver.sh tests/support/check_times.sh \
	tests/support/mpi_flags.sh
check-local: check-TESTS
	@$(CMOCKA_NOTE)
	@if test -f tests/python/run_pytest.sh.log; then \
	    line=`grep -E '^=* *[0-9]+ (passed|failed|error)|^=* *no tests ran|^SKIP' tests/python/run_pytest.sh.log | tail -n 1`; \
	    echo "Python binding (pytest, tests/python): $${line:-no summary: see tests/python/run_pytest.sh.log}"; \
	fi
	@$(SHELL) $(srcdir)/tests/support/check_times.sh $(TEST_LOGS:.log=.trs)
check-times:
	@CHECK_TIMES_MOST=0 $(SHELL) $(srcdir)/tests/support/check_times.sh $(TEST_LOGS:.log=.trs)
.PHONY: check-times

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
