# src/io: platform files in JSON: read with simdjson's On-Demand API (one C++ file behind a
# C interface), written with jansson, which also diagnoses malformed text. The only user of
# jansson and simdjson.
libdlsched_core_la_SOURCES += \
	src/io/json_locate.h \
	src/io/json_locate.c \
	src/io/platform_json.h \
	src/io/platform_json.c \
	src/io/platform_simdjson.h \
	src/io/platform_simdjson.cc \
	src/io/platform_units.h \
	src/io/platform_units.c
# Claims of other schedulers (src/verify), in the JSON dlsched writes.
libdlsched_core_la_SOURCES += \
	src/io/claim_json.h \
	src/io/claim_json.c
