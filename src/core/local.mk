# src/core: status codes and error records, growing buffers and arrays, sorting by key, the C numeric locale,
# a binary heap, atomic files, statistics, internal assertions, large blocks mapped in bulk: used by every
# module.
libdlsched_core_la_SOURCES += \
	src/core/internal.h \
	src/core/status.c \
	src/core/buf.h \
	src/core/buf.c \
	src/core/grow.h \
	src/core/grow.c \
	src/core/sort.h \
	src/core/sort.c \
	src/core/heap.h \
	src/core/heap.c \
	src/core/locale.h \
	src/core/locale.c \
	src/core/names.h \
	src/core/names.c \
	src/core/file_atomic.c \
	src/core/stats.h \
	src/core/stats.c \
	src/core/pages.h \
	src/core/pages.c \
	src/core/clock.h \
	src/core/clock.c
