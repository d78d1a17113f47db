# src/schedule: divisible-load schedules on a star network (Drozdowski and Wolniewicz 2003).
libdlsched_core_la_SOURCES += \
	src/schedule/schedule_impl.h \
	src/schedule/schedule.c \
	src/schedule/integer.c \
	src/schedule/curve.c \
	src/schedule/order.c \
	src/schedule/svg.c
