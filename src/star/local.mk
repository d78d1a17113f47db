# src/star: the star problem of Drozdowski and Wolniewicz (2003) (send order, lines, limits), the
# exact replay of loads through it, and the schedule object every star scheduler returns.
libdlsched_core_la_SOURCES += \
	src/star/star.h \
	src/star/star.c \
	src/star/result.c
