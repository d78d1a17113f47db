# tests/python/: the Python binding's pytest suite (python/), one automake test that runs
# pytest over the files below; make check then prints pytest's summary line.
PYTHON_TESTS = tests/python/run_pytest.sh
PYTHON_TEST_FILES = tests/python/conftest.py \
	tests/python/test_core.py \
	tests/python/test_platform.py \
	tests/python/test_schedule.py \
	tests/python/test_partition.py \
	tests/python/test_lu.py \
	tests/python/test_crosscheck.py \
	tests/python/test_installments.py \
	tests/python/test_verify.py \
	tests/python/test_balance.py \
	tests/python/test_bench.py \
	tests/python/test_mpi.py \
	tests/python/test_memory.py \
	tests/python/test_threads.py \
	tests/python/test_examples.py
TESTS += $(PYTHON_TESTS)
EXTRA_DIST += $(PYTHON_TESTS) $(PYTHON_TEST_FILES)
if HAVE_PYTHON
DLS_PYTHON_FOR_TESTS = $(PYTHON)
else
DLS_PYTHON_FOR_TESTS =
endif
