# The differential suite (tests/differential/README.md): one driver, run by `make check`
# over DLS_DIFF_N cases (600 by default) of seed DLS_DIFF_SEED, and for long runs by
# `make check TESTS=tests/differential/run.sh DLS_DIFF_N=100000` or by soak.sh.
check_PROGRAMS += tests/differential/differential
tests_differential_differential_SOURCES = tests/differential/differential.c \
	tests/differential/gen.c tests/differential/paths.c tests/differential/paths_more.c \
	tests/differential/diff.h tests/support/solver_output.h \
	tests/support/xoshiro.h
tests_differential_differential_CPPFLAGS = $(TEST_CPPFLAGS)
tests_differential_differential_LDADD = $(TEST_LDADD)
TESTS += tests/differential/run.sh
EXTRA_DIST += tests/differential/run.sh tests/differential/soak.sh \
	tests/differential/README.md
CLEANFILES += tests/differential/failures/*
