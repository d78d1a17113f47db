# examples/: platform files and C programs that use the public API only; built and run by
# `make check` so that they never rot.
EXTRA_DIST += \
	examples/cluster.json \
	examples/paper003_two.json \
	examples/paper003_ten.json \
	examples/memory_levels.json \
	examples/striped_mm.json \
	examples/star_cluster.json \
	examples/lu_cluster.json
EXAMPLES = examples/platform_info examples/partition_rows examples/schedule_star \
	examples/lu_columns
check_PROGRAMS = $(EXAMPLES)
examples_platform_info_SOURCES = examples/platform_info.c
examples_platform_info_LDADD = libdlsched.la -lm
examples_partition_rows_SOURCES = examples/partition_rows.c
examples_partition_rows_LDADD = libdlsched.la -lm
examples_schedule_star_SOURCES = examples/schedule_star.c
examples_schedule_star_LDADD = libdlsched.la -lm
examples_lu_columns_SOURCES = examples/lu_columns.c
examples_lu_columns_LDADD = libdlsched.la -lm
CLEANFILES += examples/schedule.svg
