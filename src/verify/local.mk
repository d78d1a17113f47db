# src/verify: dlsched as the referee: claimed schedules and partitions checked against the
# models and measured against the optimum.
libdlsched_core_la_SOURCES += \
	src/verify/verify.c
