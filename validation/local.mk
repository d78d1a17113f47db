# validation/: the certified reference suite (validation/README.md): platform files and a
# manifest of optima certified independently of dlsched (exact LPs solved by glpsol --exact,
# enumeration, closed forms), the generator that made them and the certifier.
# `make validate` recertifies every instance and checks dlsched against each; `make check`
# recertifies a fixed sample (tests/validation/suite_sample.sh).
VALIDATION_FILES = \
	validation/README.md \
	validation/generate.py \
	validation/certify.py \
	validation/refmodel.py \
	validation/manifest.json \
	validation/instances
EXTRA_DIST += $(VALIDATION_FILES)

validate: tool/dlsched$(EXEEXT) examples/even_split$(EXEEXT)
	@if test -z '$(PYTHON3)' || test -z '$(GLPSOL)'; then \
	  echo "validate: needs python3 and glpsol (configure found '$(PYTHON3)' and '$(GLPSOL)')"; \
	  exit 1; \
	fi
	PYTHONDONTWRITEBYTECODE=1 '$(PYTHON3)' $(top_srcdir)/validation/certify.py --all \
	  --manifest $(top_srcdir)/validation/manifest.json \
	  --dlsched $(top_builddir)/tool/dlsched$(EXEEXT) --glpsol '$(GLPSOL)'
	@if test -n '$(gmp_why_tests)'; then \
	  echo "validate: rational certificates not checked: $(gmp_why_tests)"; \
	else \
	  PYTHONDONTWRITEBYTECODE=1 '$(PYTHON3)' $(top_srcdir)/validation/certify.py --all \
	    --certificates --manifest $(top_srcdir)/validation/manifest.json \
	    --dlsched $(top_builddir)/tool/dlsched$(EXEEXT) --glpsol '$(GLPSOL)'; \
	fi
	@echo; echo "The scorecards of the two example schedulers (they are meant to fail some):"
	-$(top_builddir)/tool/dlsched$(EXEEXT) validate --quiet \
	  --suite $(top_srcdir)/validation/manifest.json \
	  --scheduler '$(top_builddir)/examples/even_split {platform} {load} {output} {kind} {weights} {ordered}'
	-$(top_builddir)/tool/dlsched$(EXEEXT) validate --quiet \
	  --suite $(top_srcdir)/validation/manifest.json \
	  --scheduler '$(PYTHON3) $(top_srcdir)/examples/proportional_split.py {platform} {load} {output} {kind} {weights} {ordered}'
.PHONY: validate
