# src/import: models from StarPU performance model files and CSV timings, and back (the
# only user of libcsv).
libdlsched_core_la_SOURCES += \
	src/import/import_impl.h \
	src/import/common.c \
	src/import/starpu.c \
	src/import/starpu_export.c \
	src/import/export.c \
	src/import/csv.c \
	src/import/claim_csv.h \
	src/import/claim_csv.c
