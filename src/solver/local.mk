# src/solver: the LPs and MIPs with GLPK (the only user of GLPK), and their export.
libdlsched_core_la_SOURCES += \
	src/solver/solver.h \
	src/solver/glpk_guard.h \
	src/solver/glpk_guard.c \
	src/solver/lp_star.c \
	src/solver/lp_multi.c \
	src/solver/certificate.c \
	src/solver/lp_export.c \
	src/solver/mip.c \
	src/solver/order_mip.c \
	src/solver/triplets.h \
	src/solver/triplets.c
