# src/balance: balancing iterative applications while they run (include/dlsched/balance.h).
libdlsched_core_la_SOURCES += \
	src/balance/balance_impl.h \
	src/balance/balance.c \
	src/balance/plan.c
