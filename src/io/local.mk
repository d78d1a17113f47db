# src/io: platform files in JSON (the only user of jansson).
libdlsched_core_la_SOURCES += \
	src/io/json_locate.h \
	src/io/json_locate.c \
	src/io/platform_json.h \
	src/io/platform_json.c
