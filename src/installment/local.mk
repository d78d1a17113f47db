# src/installment: multi-installment processing.
libdlsched_core_la_SOURCES += \
	src/installment/installment_impl.h \
	src/installment/installment.c \
	src/installment/bounds.c \
	src/installment/sweep.c \
	src/installment/multi.c \
	src/installment/svg.c
