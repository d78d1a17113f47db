# src/platform: the platform object: processors, models, limits, links.
libdlsched_core_la_SOURCES += \
	src/platform/platform_impl.h \
	src/platform/platform.c
