# fuzz/: the fuzz targets, one per reader of the program (platform files, the weights of
# `partition --weights`, the log of `bench --resume`, the command line). Each target is a
# dls_fuzz_one() in fuzz/fuzz_TARGET.c, linked twice:
#   - fuzz/replay_TARGET (every build): replays fuzz/corpus/TARGET/ and
#     fuzz/regressions/TARGET/ in `make check`, each input within DLS_FUZZ_TIMEOUT_S;
#   - fuzz/fuzz_TARGET (builds configured with CC=clang CXX=clang++ --enable-fuzzing): the libFuzzer
#     program, which `make fuzz` runs for FUZZ_SECONDS each (fuzz/run.sh).
# See fuzz/README.md.
FUZZ_TARGETS = platform weights bench_log cli import lu installments crosscheck evaluate integer \
	claim manifest namefiles simgrid inst_lp
FUZZ_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tool -I$(top_srcdir)/fuzz $(JANSSON_CFLAGS) \
	-DTOP_SRCDIR='"$(abs_top_srcdir)"'
FUZZ_LDADD = tool/libdlsched_tool.la libdlsched_core.la $(JANSSON_LIBS) $(CXX_RUNTIME_LIBS) -lm
FUZZ_COMMON = fuzz/harness.c fuzz/harness.h tool/tool.h
# validate's fair scheduler in the manifest target is the program of this build
FUZZ_FILES_CPPFLAGS = -DTOP_BUILDDIR='"$(abs_top_builddir)"'

REPLAY_TESTS = fuzz/replay_platform fuzz/replay_weights fuzz/replay_bench_log fuzz/replay_cli \
	fuzz/replay_import fuzz/replay_lu fuzz/replay_installments fuzz/replay_crosscheck \
	fuzz/replay_evaluate fuzz/replay_integer fuzz/replay_claim fuzz/replay_manifest \
	fuzz/replay_namefiles fuzz/replay_simgrid fuzz/replay_inst_lp
check_PROGRAMS += $(REPLAY_TESTS)
TESTS += $(REPLAY_TESTS)
fuzz_replay_platform_SOURCES = fuzz/fuzz_platform.c fuzz/replay.c $(FUZZ_COMMON)
fuzz_replay_platform_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_replay_platform_LDADD = $(FUZZ_LDADD)
fuzz_replay_weights_SOURCES = fuzz/fuzz_weights.c fuzz/replay.c $(FUZZ_COMMON)
fuzz_replay_weights_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_replay_weights_LDADD = $(FUZZ_LDADD)
fuzz_replay_bench_log_SOURCES = fuzz/fuzz_bench_log.c fuzz/replay.c $(FUZZ_COMMON)
fuzz_replay_bench_log_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_replay_bench_log_LDADD = $(FUZZ_LDADD)
fuzz_replay_cli_SOURCES = fuzz/fuzz_cli.c fuzz/replay.c $(FUZZ_COMMON)
fuzz_replay_cli_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_replay_cli_LDADD = $(FUZZ_LDADD)
fuzz_replay_import_SOURCES = fuzz/fuzz_import.c fuzz/replay.c $(FUZZ_COMMON)
fuzz_replay_import_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_replay_import_LDADD = $(FUZZ_LDADD)
# The commands' targets: one source, the command named at compile time.
fuzz_replay_lu_SOURCES = fuzz/fuzz_command.c fuzz/replay.c $(FUZZ_COMMON)
fuzz_replay_lu_CPPFLAGS = $(FUZZ_CPPFLAGS) -DDLS_FUZZ_COMMAND=lu
fuzz_replay_lu_LDADD = $(FUZZ_LDADD)
fuzz_replay_installments_SOURCES = fuzz/fuzz_command.c fuzz/replay.c $(FUZZ_COMMON)
fuzz_replay_installments_CPPFLAGS = $(FUZZ_CPPFLAGS) -DDLS_FUZZ_COMMAND=installments
fuzz_replay_installments_LDADD = $(FUZZ_LDADD)
fuzz_replay_crosscheck_SOURCES = fuzz/fuzz_command.c fuzz/replay.c $(FUZZ_COMMON)
fuzz_replay_crosscheck_CPPFLAGS = $(FUZZ_CPPFLAGS) -DDLS_FUZZ_COMMAND=crosscheck
fuzz_replay_crosscheck_LDADD = $(FUZZ_LDADD)
fuzz_replay_evaluate_SOURCES = fuzz/fuzz_command.c fuzz/replay.c $(FUZZ_COMMON)
fuzz_replay_evaluate_CPPFLAGS = $(FUZZ_CPPFLAGS) -DDLS_FUZZ_COMMAND=evaluate
fuzz_replay_evaluate_LDADD = $(FUZZ_LDADD)
fuzz_replay_integer_SOURCES = fuzz/fuzz_command.c fuzz/replay.c $(FUZZ_COMMON)
fuzz_replay_integer_CPPFLAGS = $(FUZZ_CPPFLAGS) -DDLS_FUZZ_COMMAND=integer
fuzz_replay_integer_LDADD = $(FUZZ_LDADD)

# The files and options of the newer commands (issue 35): one source compiled per target.
fuzz_replay_claim_SOURCES = fuzz/fuzz_files.c fuzz/replay.c $(FUZZ_COMMON)
fuzz_replay_claim_CPPFLAGS = $(FUZZ_CPPFLAGS) $(FUZZ_FILES_CPPFLAGS) -DDLS_FUZZ_COMMAND=claim
fuzz_replay_claim_LDADD = $(FUZZ_LDADD)
fuzz_replay_manifest_SOURCES = fuzz/fuzz_files.c fuzz/replay.c $(FUZZ_COMMON)
fuzz_replay_manifest_CPPFLAGS = $(FUZZ_CPPFLAGS) $(FUZZ_FILES_CPPFLAGS) -DDLS_FUZZ_COMMAND=manifest
fuzz_replay_manifest_LDADD = $(FUZZ_LDADD)
fuzz_replay_namefiles_SOURCES = fuzz/fuzz_files.c fuzz/replay.c $(FUZZ_COMMON)
fuzz_replay_namefiles_CPPFLAGS = $(FUZZ_CPPFLAGS) $(FUZZ_FILES_CPPFLAGS) -DDLS_FUZZ_COMMAND=namefiles
fuzz_replay_namefiles_LDADD = $(FUZZ_LDADD)
fuzz_replay_simgrid_SOURCES = fuzz/fuzz_files.c fuzz/replay.c $(FUZZ_COMMON)
fuzz_replay_simgrid_CPPFLAGS = $(FUZZ_CPPFLAGS) $(FUZZ_FILES_CPPFLAGS) -DDLS_FUZZ_COMMAND=simgrid
fuzz_replay_simgrid_LDADD = $(FUZZ_LDADD)
fuzz_replay_inst_lp_SOURCES = fuzz/fuzz_files.c fuzz/replay.c $(FUZZ_COMMON)
fuzz_replay_inst_lp_CPPFLAGS = $(FUZZ_CPPFLAGS) $(FUZZ_FILES_CPPFLAGS) -DDLS_FUZZ_COMMAND=inst_lp
fuzz_replay_inst_lp_LDADD = $(FUZZ_LDADD)

# The corpora, the regression inputs, the dictionaries and the runner.
EXTRA_DIST += fuzz/README.md fuzz/run.sh fuzz/corpus fuzz/regressions fuzz/dict

# Seconds each target runs in `make fuzz`, and in CI (.ci/run reads this line; the fuzz
# section of doc/ARCHITECTURE.md and fuzz/README.md quote it, tests/layout/check_map.sh
# checks that they do): the one place the duration is written.
FUZZ_SECONDS = 20

if FUZZING
FUZZERS = fuzz/fuzz_platform fuzz/fuzz_weights fuzz/fuzz_bench_log fuzz/fuzz_cli fuzz/fuzz_import \
	fuzz/fuzz_lu fuzz/fuzz_installments fuzz/fuzz_crosscheck fuzz/fuzz_evaluate fuzz/fuzz_integer \
	fuzz/fuzz_claim fuzz/fuzz_manifest fuzz/fuzz_namefiles fuzz/fuzz_simgrid fuzz/fuzz_inst_lp
noinst_PROGRAMS = $(FUZZERS)
FUZZ_LINK_FLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
fuzz_fuzz_platform_SOURCES = fuzz/fuzz_platform.c fuzz/libfuzzer.c $(FUZZ_COMMON)
fuzz_fuzz_platform_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_platform_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_platform_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_weights_SOURCES = fuzz/fuzz_weights.c fuzz/libfuzzer.c $(FUZZ_COMMON)
fuzz_fuzz_weights_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_weights_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_weights_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_bench_log_SOURCES = fuzz/fuzz_bench_log.c fuzz/libfuzzer.c $(FUZZ_COMMON)
fuzz_fuzz_bench_log_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_bench_log_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_bench_log_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_cli_SOURCES = fuzz/fuzz_cli.c fuzz/libfuzzer.c $(FUZZ_COMMON)
fuzz_fuzz_cli_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_cli_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_cli_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_import_SOURCES = fuzz/fuzz_import.c fuzz/libfuzzer.c $(FUZZ_COMMON)
fuzz_fuzz_import_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_import_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_import_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_lu_SOURCES = fuzz/fuzz_command.c fuzz/libfuzzer.c $(FUZZ_COMMON)
fuzz_fuzz_lu_CPPFLAGS = $(FUZZ_CPPFLAGS) -DDLS_FUZZ_COMMAND=lu
fuzz_fuzz_lu_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_lu_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_installments_SOURCES = fuzz/fuzz_command.c fuzz/libfuzzer.c $(FUZZ_COMMON)
fuzz_fuzz_installments_CPPFLAGS = $(FUZZ_CPPFLAGS) -DDLS_FUZZ_COMMAND=installments
fuzz_fuzz_installments_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_installments_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_crosscheck_SOURCES = fuzz/fuzz_command.c fuzz/libfuzzer.c $(FUZZ_COMMON)
fuzz_fuzz_crosscheck_CPPFLAGS = $(FUZZ_CPPFLAGS) -DDLS_FUZZ_COMMAND=crosscheck
fuzz_fuzz_crosscheck_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_crosscheck_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_evaluate_SOURCES = fuzz/fuzz_command.c fuzz/libfuzzer.c $(FUZZ_COMMON)
fuzz_fuzz_evaluate_CPPFLAGS = $(FUZZ_CPPFLAGS) -DDLS_FUZZ_COMMAND=evaluate
fuzz_fuzz_evaluate_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_evaluate_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_integer_SOURCES = fuzz/fuzz_command.c fuzz/libfuzzer.c $(FUZZ_COMMON)
fuzz_fuzz_integer_CPPFLAGS = $(FUZZ_CPPFLAGS) -DDLS_FUZZ_COMMAND=integer
fuzz_fuzz_integer_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_integer_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_claim_SOURCES = fuzz/fuzz_files.c fuzz/libfuzzer.c $(FUZZ_COMMON)
fuzz_fuzz_claim_CPPFLAGS = $(FUZZ_CPPFLAGS) $(FUZZ_FILES_CPPFLAGS) -DDLS_FUZZ_COMMAND=claim
fuzz_fuzz_claim_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_claim_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_manifest_SOURCES = fuzz/fuzz_files.c fuzz/libfuzzer.c $(FUZZ_COMMON)
fuzz_fuzz_manifest_CPPFLAGS = $(FUZZ_CPPFLAGS) $(FUZZ_FILES_CPPFLAGS) -DDLS_FUZZ_COMMAND=manifest
fuzz_fuzz_manifest_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_manifest_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_namefiles_SOURCES = fuzz/fuzz_files.c fuzz/libfuzzer.c $(FUZZ_COMMON)
fuzz_fuzz_namefiles_CPPFLAGS = $(FUZZ_CPPFLAGS) $(FUZZ_FILES_CPPFLAGS) -DDLS_FUZZ_COMMAND=namefiles
fuzz_fuzz_namefiles_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_namefiles_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_simgrid_SOURCES = fuzz/fuzz_files.c fuzz/libfuzzer.c $(FUZZ_COMMON)
fuzz_fuzz_simgrid_CPPFLAGS = $(FUZZ_CPPFLAGS) $(FUZZ_FILES_CPPFLAGS) -DDLS_FUZZ_COMMAND=simgrid
fuzz_fuzz_simgrid_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_simgrid_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_inst_lp_SOURCES = fuzz/fuzz_files.c fuzz/libfuzzer.c $(FUZZ_COMMON)
fuzz_fuzz_inst_lp_CPPFLAGS = $(FUZZ_CPPFLAGS) $(FUZZ_FILES_CPPFLAGS) -DDLS_FUZZ_COMMAND=inst_lp
fuzz_fuzz_inst_lp_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_inst_lp_LDADD = $(FUZZ_LDADD)

# Runs every target for FUZZ_SECONDS (make fuzz FUZZ_SECONDS=600); fails on any crash,
# leak, sanitizer report or input slower than DLS_FUZZ_TIMEOUT_S.
fuzz: $(FUZZERS)
	$(SHELL) $(srcdir)/fuzz/run.sh $(srcdir) $(FUZZ_SECONDS) $(FUZZ_TARGETS)
else
fuzz:
	@echo "fuzz: skipped: this build was configured without --enable-fuzzing; the fuzz targets"
	@if test -n "$(CLANG)"; then \
	  echo "  need clang's libFuzzer (clang is $(CLANG)): build them apart from this build:"; \
	  echo "  mkdir _build-fuzz && cd _build-fuzz && ../configure CC=clang CXX=clang++ --enable-fuzzing && make fuzz"; \
	else \
	  echo "  need clang's libFuzzer, and configure found no clang (Debian: apt-get install clang)"; \
	fi
endif
.PHONY: fuzz
clean-local: clean-fuzz
clean-fuzz:
	-rm -rf fuzz/work fuzz/artifacts
.PHONY: clean-fuzz
