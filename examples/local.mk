# examples/: platform files and C programs that use the public API only; built and run by
# `make check` so that they never rot.
EXTRA_DIST += \
	examples/cluster.json \
	examples/star_two.json \
	examples/star_ten.json \
	examples/memory_levels.json \
	examples/four_node_cluster.json \
	examples/striped_mm.json \
	examples/star_cluster.json \
	examples/lu_cluster.json \
	examples/simgrid/README.md \
	examples/simgrid/cluster8.xml examples/simgrid/cluster8.hosts \
	examples/simgrid/cluster64.xml examples/simgrid/cluster64.hosts \
	examples/simgrid/cluster1024.xml examples/simgrid/cluster1024.hosts
EXAMPLES = examples/platform_info examples/partition_rows examples/schedule_star \
	examples/lu_columns examples/even_split $(TUTORIAL_EXAMPLES)
check_PROGRAMS = $(EXAMPLES)
examples_platform_info_SOURCES = examples/platform_info.c
examples_platform_info_LDADD = libdlsched.la -lm
examples_partition_rows_SOURCES = examples/partition_rows.c
examples_partition_rows_LDADD = libdlsched.la -lm
examples_schedule_star_SOURCES = examples/schedule_star.c
examples_schedule_star_LDADD = libdlsched.la -lm
examples_lu_columns_SOURCES = examples/lu_columns.c
examples_lu_columns_LDADD = libdlsched.la -lm
# The two schedulers `dlsched validate` scores in its documentation and tests: an even split
# in C on the public API, and a naive proportional split in Python that reads the platform
# itself.
examples_even_split_SOURCES = examples/even_split.c
examples_even_split_LDADD = libdlsched.la -lm
EXTRA_DIST += examples/proportional_split.py
# The Python binding's examples, run by tests/python/test_examples.py.
EXTRA_DIST += examples/python/platform_schedule.py examples/python/measure_kernel.py \
	examples/python/balance_loop.py
CLEANFILES += examples/schedule.svg

# The programs of doc/TUTORIAL.md, one a step, run by tests/doc/tutorial.sh.
TUTORIAL_EXAMPLES = examples/tutorial_1_platform examples/tutorial_2_partition \
	examples/tutorial_3_schedule examples/tutorial_4_lp examples/tutorial_5_evaluate \
	examples/tutorial_6_verify examples/tutorial_7_measure examples/tutorial_8_balance
examples_tutorial_1_platform_SOURCES = examples/tutorial_1_platform.c
examples_tutorial_1_platform_LDADD = libdlsched.la -lm
examples_tutorial_2_partition_SOURCES = examples/tutorial_2_partition.c
examples_tutorial_2_partition_LDADD = libdlsched.la -lm
examples_tutorial_3_schedule_SOURCES = examples/tutorial_3_schedule.c
examples_tutorial_3_schedule_LDADD = libdlsched.la -lm
examples_tutorial_4_lp_SOURCES = examples/tutorial_4_lp.c
examples_tutorial_4_lp_LDADD = libdlsched.la -lm
examples_tutorial_5_evaluate_SOURCES = examples/tutorial_5_evaluate.c
examples_tutorial_5_evaluate_LDADD = libdlsched.la -lm
examples_tutorial_6_verify_SOURCES = examples/tutorial_6_verify.c
examples_tutorial_6_verify_LDADD = libdlsched.la -lm
examples_tutorial_7_measure_SOURCES = examples/tutorial_7_measure.c
examples_tutorial_7_measure_LDADD = libdlsched.la -lm
examples_tutorial_8_balance_SOURCES = examples/tutorial_8_balance.c
examples_tutorial_8_balance_LDADD = libdlsched.la -lm
TUTORIAL_TESTS = tests/doc/tutorial.sh
EXTRA_DIST += doc/TUTORIAL.md

# The MPI examples (issue 14): built with the MPI layer only, run by tests/mpi/run_mpi.sh under
# the launcher. -no-install: the launcher starts the real program, not libtool's wrapper
# script. mpi_matmul computes with OpenBLAS itself, as a user's MPI program would.
EXTRA_DIST += examples/mpi_matmul.c
if HAVE_MPI
check_PROGRAMS += examples/mpi_matmul
examples_mpi_matmul_SOURCES = examples/mpi_matmul.c
examples_mpi_matmul_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CFLAGS) $(OPENBLAS_CFLAGS)
examples_mpi_matmul_LDADD = libdlsched_mpi.la libdlsched.la $(MPI_LIBS) $(OPENBLAS_LIBS) -lm
examples_mpi_matmul_LDFLAGS = $(AM_LDFLAGS) -no-install
endif
EXTRA_DIST += examples/mpi_divisible.c
if HAVE_MPI
check_PROGRAMS += examples/mpi_divisible
examples_mpi_divisible_SOURCES = examples/mpi_divisible.c
examples_mpi_divisible_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CFLAGS)
examples_mpi_divisible_LDADD = libdlsched_mpi.la libdlsched.la $(MPI_LIBS) -lm
examples_mpi_divisible_LDFLAGS = $(AM_LDFLAGS) -no-install
endif
# issue 38: an iterative MPI program balanced while it runs (dls_mpi_balance, dls_mpi_move)
EXTRA_DIST += examples/mpi_balance.c
if HAVE_MPI
check_PROGRAMS += examples/mpi_balance
examples_mpi_balance_SOURCES = examples/mpi_balance.c
examples_mpi_balance_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CFLAGS)
examples_mpi_balance_LDADD = libdlsched_mpi.la libdlsched.la $(MPI_LIBS) -lm
examples_mpi_balance_LDFLAGS = $(AM_LDFLAGS) -no-install
endif
