# src/measure: speed functions by measurement (the only user of OpenBLAS).
libdlsched_core_la_SOURCES += \
	src/measure/measure.h \
	src/measure/bench.c \
	src/measure/surface.c \
	src/measure/kernels.c \
	src/measure/synthetic.c
