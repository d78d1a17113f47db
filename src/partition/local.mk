# src/partition: geometric partitioning (Lastovetsky and Reddy 2007a, 2006 and 2005).
libdlsched_core_la_SOURCES += \
	src/partition/partition_impl.h \
	src/partition/partition.c \
	src/partition/geometric.c \
	src/partition/exact.c \
	src/partition/weighted.c
