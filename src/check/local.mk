# src/check: the LP and the partitioners checking each other.
libdlsched_core_la_SOURCES += \
	src/check/crosscheck.c
