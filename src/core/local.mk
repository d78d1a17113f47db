# src/core: status codes and error records, atomic files, statistics: used by every module.
libdlsched_core_la_SOURCES += \
	src/core/internal.h \
	src/core/status.c \
	src/core/file_atomic.c \
	src/core/stats.h \
	src/core/stats.c
