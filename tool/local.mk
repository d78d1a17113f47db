# tool/: the dlsched program. It sees the public headers only (include/), never src/.
# Everything but main() is a convenience library, so that the fuzz targets (fuzz/) can call
# the program's dispatcher and readers in-process.
noinst_LTLIBRARIES += tool/libdlsched_tool.la
tool_libdlsched_tool_la_SOURCES = \
	tool/tool.h \
	tool/main.c \
	tool/options.c \
	tool/output.c \
	tool/helpers.c \
	tool/order.c \
	tool/sequence.c \
	tool/namefile.c \
	tool/cmd_check.c \
	tool/cmd_partition.c \
	tool/cmd_schedule.c \
	tool/cmd_bench.c \
	tool/cmd_plot.c \
	tool/cmd_lu.c \
	tool/cmd_crosscheck.c \
	tool/cmd_installments.c \
	tool/cmd_import.c \
	tool/cmd_simulate.c \
	tool/cmd_balance.c \
	tool/cmd_verify.c \
	tool/cmd_validate.c \
	tool/validate_run.c \
	tool/weights.c
tool_libdlsched_tool_la_CPPFLAGS = $(AM_CPPFLAGS) $(JANSSON_CFLAGS) -DDLS_BINDIR='"$(bindir)"'

bin_PROGRAMS = tool/dlsched
tool_dlsched_SOURCES = tool/dlsched.c tool/tool.h
tool_dlsched_CPPFLAGS = $(AM_CPPFLAGS) $(JANSSON_CFLAGS)
tool_dlsched_LDADD = tool/libdlsched_tool.la libdlsched.la $(JANSSON_LIBS) -lm
# `bench --mpi` (tool/cmd_bench_mpi.c): in the program only, and only with MPI, so that the
# fuzz targets, which link the tool's library, never need MPI.
EXTRA_DIST += tool/cmd_bench_mpi.c
if HAVE_MPI
tool_dlsched_SOURCES += tool/cmd_bench_mpi.c
tool_dlsched_CPPFLAGS += $(MPI_CFLAGS)
tool_dlsched_LDADD += libdlsched_mpi.la $(MPI_LIBS)
endif
