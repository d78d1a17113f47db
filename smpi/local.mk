# smpi/: dlsched for SimGrid's SMPI (issue 22). With smpicc found, `make` (and `make smpi`)
# builds the library, the MPI layer, the program and the two MPI examples a second time with
# the SMPI wrappers (smpi/smpi.mk says why everything), into smpi/dlsched-smpi (installed),
# smpi/mpi_matmul and smpi/mpi_divisible, which smpirun runs as the ranks of a simulated
# cluster (examples/simgrid/, smpi/flow.sh).
EXTRA_DIST += smpi/smpi.mk smpi/flow.sh smpi/report.py
SMPI_MAKE = $(MAKE) -f $(srcdir)/smpi/smpi.mk srcdir=$(srcdir) \
	SMPICC="$(SMPICC)" SMPICXX="$(SMPICXX)" \
	SMPI_CPPFLAGS="-DHAVE_CONFIG_H -I$(top_builddir) -I$(top_srcdir)/include -I$(top_builddir)/include $(DEBUG_CPPFLAGS)" \
	SMPI_CFLAGS="$(CFLAGS)" SMPI_CXXFLAGS="$(CXXFLAGS)" \
	SMPI_LIB_CPPFLAGS="$(DLS_DEPS_CFLAGS)" SMPI_LIBS="$(DLS_DEPS_LIBS)" \
	SMPI_LIB_SOURCES="$(libdlsched_core_la_SOURCES)" \
	SMPI_MPI_SOURCES="mpi/common.c mpi/bench.c mpi/partition.c mpi/plan.c mpi/links.c mpi/balance.c" \
	SMPI_TOOL_SOURCES="$(tool_libdlsched_tool_la_SOURCES) tool/dlsched.c tool/cmd_bench_mpi.c" \
	SMPI_TOOL_CPPFLAGS="$(JANSSON_CFLAGS) -DDLS_BINDIR='\"$(bindir)\"'" \
	SMPI_EXAMPLE_CPPFLAGS="$(OPENBLAS_CFLAGS)"

if HAVE_SMPI
SMPI_BUILT = smpi
smpi: include/dlsched/version.h
	+@$(SMPI_MAKE)
else
SMPI_BUILT =
smpi:
	@echo "make smpi: skipped: $(smpi_why)"
endif
all-local: $(SMPI_BUILT)
install-exec-local: $(SMPI_BUILT)
	@if test -n "$(SMPI_BUILT)"; then \
	  echo " $(INSTALL_PROGRAM) smpi/dlsched-smpi '$(DESTDIR)$(bindir)/dlsched-smpi'"; \
	  $(MKDIR_P) "$(DESTDIR)$(bindir)" && \
	  $(INSTALL_PROGRAM) smpi/dlsched-smpi "$(DESTDIR)$(bindir)/dlsched-smpi"; fi
uninstall-local: uninstall-smpi
uninstall-smpi:
	rm -f "$(DESTDIR)$(bindir)/dlsched-smpi"
clean-local: clean-smpi
clean-smpi:
	-rm -rf smpi/obj smpi/dlsched-smpi smpi/mpi_matmul smpi/mpi_divisible smpi/mpi_balance tests/bench/smpi-64 tests/bench/smpi-1024
.PHONY: smpi clean-smpi uninstall-smpi
