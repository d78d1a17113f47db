# doc/: the manual pages and the API reference. dlsched(1) and dlsched(3), the overview of
# the library, are written by hand. The man3 page of every function, type, enumeration value
# and macro is made by Doxygen from the comments of the public headers (doc/Doxyfile):
# - in a build where configure found Doxygen, into doc/api/man3 of the build tree (make man3;
#   `make` makes them too, and make install installs them);
# - make dist puts them in the tarball as doc/man3, from which a build without Doxygen
#   installs them (make distcheck builds there, on a read-only source tree);
# - from a git checkout without Doxygen they are not installed, and the build says why.
# make html writes the same reference as HTML (doc/api/html); make docs-check fails on a
# Doxygen warning, an exported function without a page, and a man page mandoc complains
# about (scripts/docs-check.sh).
dist_man_MANS += doc/dlsched.3
EXTRA_DIST += doc/Doxyfile scripts/man3-pages.sh scripts/docs-check.sh

# Every public header, include/dlsched/mpi.h too (documented whether or not MPI was found);
# the generated include/dlsched/version.h is read from the build tree.
doc_api_headers = \
	include/dlsched.h \
	include/dlsched/common.h \
	include/dlsched/model.h \
	include/dlsched/platform.h \
	include/dlsched/partition.h \
	include/dlsched/balance.h \
	include/dlsched/schedule.h \
	include/dlsched/kernel.h \
	include/dlsched/bench.h \
	include/dlsched/lu.h \
	include/dlsched/crosscheck.h \
	include/dlsched/plot.h \
	include/dlsched/installment.h \
	include/dlsched/import.h \
	include/dlsched/verify.h \
	include/dlsched/simgrid.h \
	include/dlsched/mpi.h
doc_api_deps = $(doc_api_headers) include/dlsched/version.h doc/Doxyfile

# The settings that depend on the trees, after doc/Doxyfile's, for `doxygen -`.
doc_doxygen_config = cat $(srcdir)/doc/Doxyfile && \
	printf 'INPUT =' && for h in $(doc_api_headers); do printf ' %s' "$(srcdir)/$$h"; done && \
	echo ' include/dlsched/version.h' && \
	echo 'STRIP_FROM_PATH = $(srcdir)/include include' && \
	echo 'PROJECT_NUMBER = $(PACKAGE_VERSION)' && \
	echo 'OUTPUT_DIRECTORY = doc/api'

if HAVE_DOXYGEN
doc_man3_stamp = doc/api/man3.stamp
doc_html_stamp = doc/api/html.stamp
else
doc_man3_stamp =
doc_html_stamp =
endif

doc/api/man3.stamp: $(doc_api_deps) scripts/man3-pages.sh
	$(AM_V_GEN)rm -rf doc/api/man doc/api/man3 && $(MKDIR_P) doc/api && \
	{ $(doc_doxygen_config) && echo 'GENERATE_MAN = YES' && \
	  echo 'WARN_LOGFILE = doc/api/man-warnings.log'; } | $(DOXYGEN) - && \
	$(SHELL) $(srcdir)/scripts/man3-pages.sh doc/api/man/man3 doc/api/man3 && \
	rm -rf doc/api/man && touch $@

doc/api/html.stamp: $(doc_api_deps)
	$(AM_V_GEN)rm -rf doc/api/html && $(MKDIR_P) doc/api && \
	{ $(doc_doxygen_config) && echo 'GENERATE_HTML = YES' && \
	  echo 'WARN_LOGFILE = doc/api/html-warnings.log'; } | $(DOXYGEN) - && \
	touch $@

# Where the man3 pages to install or ship are: made here, else from the tarball, else none.
doc_man3_find = if test -f doc/api/man3.stamp; then d=doc/api/man3; \
	elif test -d $(srcdir)/doc/man3; then d=$(srcdir)/doc/man3; else d=; fi

all-local: man3
man3: $(doc_man3_stamp)
	@$(doc_man3_find); test -n "$$d" || echo "man3 pages: skipped: $(doxygen_why)"

html-local: $(doc_html_stamp)
	@test -n "$(doc_html_stamp)" && echo "HTML reference: doc/api/html/index.html" || \
	echo "HTML reference: skipped: $(doxygen_why)"

install-data-local: install-api-man3
install-api-man3: $(doc_man3_stamp)
	@$(doc_man3_find); \
	if test -z "$$d"; then echo "man3 pages: not installed: $(doxygen_why)"; exit 0; fi; \
	$(MKDIR_P) '$(DESTDIR)$(man3dir)' && $(INSTALL_DATA) $$d/*.3 '$(DESTDIR)$(man3dir)'

uninstall-local: uninstall-api-man3
uninstall-api-man3:
	@$(doc_man3_find); test -n "$$d" || exit 0; \
	for f in $$d/*.3; do rm -f "$(DESTDIR)$(man3dir)/$${f##*/}"; done

dist-hook: dist-api-man3
dist-api-man3: $(doc_man3_stamp)
	@$(doc_man3_find); \
	if test -z "$$d"; then \
	  echo "make dist: the tarball carries the man3 pages, which need Doxygen: $(doxygen_why)" >&2; \
	  exit 1; fi; \
	$(MKDIR_P) $(distdir)/doc/man3 && cp $$d/*.3 $(distdir)/doc/man3/

docs-check: $(doc_man3_stamp) $(lib_LTLIBRARIES)
	@DOXYGEN='$(DOXYGEN)' MANDOC='$(MANDOC)' doxygen_why='$(doxygen_why)' \
	  $(SHELL) $(srcdir)/scripts/docs-check.sh '$(srcdir)' doc/api

mostlyclean-local: clean-doc
clean-doc:
	-rm -rf doc/api

.PHONY: man3 install-api-man3 uninstall-api-man3 dist-api-man3 docs-check clean-doc
