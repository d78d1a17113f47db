# src/partition: geometric partitioning (papers 000, 002, 004).
libdlsched_core_la_SOURCES += \
	src/partition/partition_impl.h \
	src/partition/partition.c \
	src/partition/geometric.c \
	src/partition/exact.c \
	src/partition/weighted.c
