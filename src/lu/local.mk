# src/lu: LU column distributions (Lastovetsky and Reddy 2007b).
libdlsched_core_la_SOURCES += \
	src/lu/lu_impl.h \
	src/lu/lu.c \
	src/lu/cost.c \
	src/lu/hspf.c \
	src/lu/constant.c \
	src/lu/reverse.c \
	src/lu/functional.c \
	src/lu/exact.c
