# src/model: functional performance models: evaluation, shape, convex envelope, inverse.
libdlsched_core_la_SOURCES += \
	src/model/model_impl.h \
	src/model/model.c \
	src/model/shape.c \
	src/model/envelope.c \
	src/model/inverse.c
