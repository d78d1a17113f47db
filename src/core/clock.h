/* The monotonic clock that bounds the library's searches (deadlines in seconds). */
#ifndef DLSCHED_CORE_CLOCK_H
#define DLSCHED_CORE_CLOCK_H

#include "core/internal.h"

/* Seconds of CLOCK_MONOTONIC: only differences mean anything. */
DLS__HIDDEN double dls__clock_now(void);

#endif /* DLSCHED_CORE_CLOCK_H */
