# src/chain: the star problem of Drozdowski and Wolniewicz (2003) solved as a chain of value
# functions, without an LP solver: the paper's LP exactly, the best set of processors, the curve
# T(V).
libdlsched_core_la_SOURCES += \
	src/chain/chain.h \
	src/chain/chain_impl.h \
	src/chain/problem.c \
	src/chain/pwl.c \
	src/chain/stage.c \
	src/chain/paper.c \
	src/chain/sweep.c \
	src/chain/select.c \
	src/chain/order.c \
	src/chain/chain.c
