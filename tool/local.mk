# tool/: the dlsched program. It sees the public headers only (include/), never src/.
bin_PROGRAMS = tool/dlsched
tool_dlsched_SOURCES = \
	tool/tool.h \
	tool/main.c \
	tool/options.c \
	tool/output.c \
	tool/helpers.c \
	tool/cmd_check.c \
	tool/cmd_partition.c \
	tool/cmd_schedule.c \
	tool/cmd_bench.c \
	tool/cmd_plot.c \
	tool/cmd_lu.c \
	tool/cmd_crosscheck.c \
	tool/cmd_installments.c
tool_dlsched_CPPFLAGS = $(AM_CPPFLAGS) $(JANSSON_CFLAGS)
tool_dlsched_LDADD = libdlsched.la $(JANSSON_LIBS) -lm
