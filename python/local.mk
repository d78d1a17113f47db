# python/: the Python binding, a package `dlsched` whose extension dlsched._dlsched is
# made by cffi in API mode from the public headers (python/build_ffi.py writes its C
# source), built as a libtool module against libdlsched.la, installed under the
# interpreter's site folder of the prefix. Built when configure finds a python3 with
# cffi and numpy (configure.ac); its tests (tests/python/, pytest) run in make check.
DLSCHED_PY_SOURCES = \
	python/dlsched/__init__.py python/dlsched/_core.py python/dlsched/errors.py \
	python/dlsched/platform.py python/dlsched/schedule.py python/dlsched/partition.py \
	python/dlsched/installments.py python/dlsched/verify.py python/dlsched/lu.py \
	python/dlsched/crosscheck.py python/dlsched/balance.py python/dlsched/bench.py \
	python/dlsched/mpi.py python/dlsched/_json.py python/dlsched/py.typed \
	python/dlsched/_dlsched.pyi python/dlsched/_args.py python/dlsched/plot.py
EXTRA_DIST += python/build_ffi.py $(DLSCHED_PY_SOURCES)

if HAVE_PYTHON
dlschedpy_LTLIBRARIES = python/_dlsched.la
nodist_python__dlsched_la_SOURCES = python/_dlsched.c
# (the generated code is cffi's, not ours: the project's warning flags are not for it)
python__dlsched_la_CPPFLAGS = $(AM_CPPFLAGS) $(PYTHON_CPPFLAGS)
python__dlsched_la_CFLAGS = -fvisibility=hidden -Wno-deprecated-declarations
# (-R $(libdir): the installed module finds the installed libdlsched without ldconfig)
python__dlsched_la_LDFLAGS = -module -avoid-version -shared -R $(libdir)
python__dlsched_la_LIBADD = libdlsched.la
dlschedpy_DATA = $(DLSCHED_PY_SOURCES)
CLEANFILES += python/_dlsched.c

python/_dlsched.c: $(srcdir)/python/build_ffi.py $(dlschedinclude_HEADERS) $(nodist_dlschedinclude_HEADERS)
	$(AM_V_GEN)$(MKDIR_P) python && \
	$(PYTHON) $(srcdir)/python/build_ffi.py --include include --include $(srcdir)/include \
	    --cpp "$(CPP)" $@ >/dev/null

# dlsched._dlsched_mpi: the MPI helpers of dlsched.mpi, on mpi4py's communicators
if HAVE_PYTHON_MPI
dlschedpy_LTLIBRARIES += python/_dlsched_mpi.la
nodist_python__dlsched_mpi_la_SOURCES = python/_dlsched_mpi.c
python__dlsched_mpi_la_CPPFLAGS = $(AM_CPPFLAGS) $(PYTHON_CPPFLAGS) $(MPI_CFLAGS)
python__dlsched_mpi_la_CFLAGS = -fvisibility=hidden -Wno-deprecated-declarations
python__dlsched_mpi_la_LDFLAGS = -module -avoid-version -shared -R $(libdir)
python__dlsched_mpi_la_LIBADD = libdlsched_mpi.la libdlsched.la $(MPI_LIBS)
CLEANFILES += python/_dlsched_mpi.c

python/_dlsched_mpi.c: $(srcdir)/python/build_ffi.py $(dlschedinclude_HEADERS) $(nodist_dlschedinclude_HEADERS)
	$(AM_V_GEN)$(MKDIR_P) python && \
	$(PYTHON) $(srcdir)/python/build_ffi.py --include include --include $(srcdir)/include \
	    --cpp "$(CPP)" --mpi $@ >/dev/null
endif

# The package as the tests and the examples import it from the build tree:
# python/build/dlsched, the sources with the module next to them.
PYTHON_BUILD_STAMP = python/build/dlsched/.stamp
endif
if HAVE_PYTHON_MPI
PYTHON_MPI_MODULE = python/_dlsched_mpi.la
else
PYTHON_MPI_MODULE =
endif
all-local: $(PYTHON_BUILD_STAMP)
python/build/dlsched/.stamp: python/_dlsched.la $(PYTHON_MPI_MODULE) $(DLSCHED_PY_SOURCES)
	$(AM_V_GEN)$(MKDIR_P) python/build/dlsched && \
	for f in $(DLSCHED_PY_SOURCES); do cp -f $(srcdir)/$$f python/build/dlsched/; done && \
	cp -f python/.libs/_dlsched.so python/build/dlsched/ && \
	if test -n "$(PYTHON_MPI_MODULE)"; then \
	    cp -f python/.libs/_dlsched_mpi.so python/build/dlsched/; fi && touch $@
clean-local: clean-python-build
clean-python-build:
	rm -rf python/build
.PHONY: clean-python-build
