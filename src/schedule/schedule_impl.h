/* Internals shared by the scheduler's entry points (schedule.c, integer.c). */
#ifndef DLSCHED_SCHEDULE_SCHEDULE_IMPL_H
#define DLSCHED_SCHEDULE_SCHEDULE_IMPL_H

#include "chain/chain.h"
#include "star/star.h"

/* Checks the arguments shared by every entry point: platform and out not NULL, at least one
 * processor, and the parameters; fn names the public function in messages. */
DLS_HIDDEN dls_status dls__schedule_check(const dls_platform *pl, dls_schedule **out,
                                          const dls_schedule_params *par, const char *fn,
                                          dls_error *err);

/* Checks the parameters (reserved bytes, ranges, the solver's options). */
DLS_HIDDEN dls_status dls__schedule_params_check(const dls_schedule_params *par, dls_error *err);

/* The chain solver's parameters for the schedule's (the model by drop_unused, the bound on
 * the selection's pieces, the platform for names in messages). */
DLS_HIDDEN void dls__schedule_chain_params(const dls_platform *platform,
                                           const dls_schedule_params *params,
                                           dls__chain_params *cp);

/* Checks the MIP's parameters (integer.c); the cross-check uses it too. */
DLS_HIDDEN dls_status dls__mip_params_check(const dls_mip_params *p, dls_error *err);

#endif /* DLSCHED_SCHEDULE_SCHEDULE_IMPL_H */
