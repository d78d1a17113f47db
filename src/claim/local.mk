# src/claim: a schedule or partition claimed by some tool (include/dlsched/verify.h).
libdlsched_core_la_SOURCES += \
	src/claim/claim_impl.h \
	src/claim/claim.c
