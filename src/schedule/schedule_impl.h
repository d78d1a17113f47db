/* Internals shared by the scheduler's entry points (schedule.c, integer.c). */
#ifndef DLSCHED_SCHEDULE_SCHEDULE_IMPL_H
#define DLSCHED_SCHEDULE_SCHEDULE_IMPL_H

#include "chain/chain.h"
#include "star/star.h"

/* Checks the arguments shared by every entry point: platform and out not NULL, at least one
 * processor, and the parameters; fn names the public function in messages. */
DLS__HIDDEN dls_status dls__schedule_check(const dls_platform *pl, dls_schedule **out,
                                          const dls_schedule_params *par, const char *fn,
                                          dls_error *err);

/* Checks the parameters (reserved bytes, ranges, the solver's options). */
DLS__HIDDEN dls_status dls__schedule_params_check(const dls_schedule_params *par, dls_error *err);

/* The chain solver's parameters for the schedule's (the model by drop_unused, the bound on
 * the selection's pieces, the platform for names in messages). */
DLS__HIDDEN void dls__schedule_chain_params(const dls_platform *platform,
                                           const dls_schedule_params *params,
                                           dls__chain_params *cp);

/* After the chain's answer failed its own check (its makespan against the replay of its
 * loads; err holds why): GLPK solves the same LP into s, whose note says why. Returns the
 * chain's failure where GLPK cannot answer either (the message names both), or where the
 * star has more processors than GLPK takes over in reasonable time. */
DLS__HIDDEN dls_status dls__schedule_chain_fallback(const dls_platform *platform,
                                                   const dls__star *star,
                                                   const dls_schedule_params *params,
                                                   dls_schedule *s, dls_error *err);

/* Places what the star said of the speed models' shapes (a time x/s(x) not convex, an
 * envelope of approximate lines) and frees it: into the note when the envelopes changed the
 * answer (the true models' makespan above the LP's), else into the details, since the loads
 * then lie where the envelopes are the true times and the answer is exact. */
DLS__HIDDEN void dls__schedule_place_shape(dls_schedule *s, char *shape, int changed);

/* Checks the MIP's parameters (integer.c); the cross-check uses it too. */
DLS__HIDDEN dls_status dls__mip_params_check(const dls_mip_params *p, dls_error *err);

/* The best send order (order.c) of the star st (built in the platform's order, feasible):
 * seq (platform indices in send order, st->m of them), how it was found, the chain's
 * makespans (priced by the chain with cp, the schedule's model: see
 * dls__schedule_chain_params) of the platform's order, of the rate order and of the order
 * found (s), the
 * lower bound no order beats (s), the candidates the search priced, its seconds, and a
 * note (NULL when nothing to say) on why the exact search gave way. */
typedef struct dls__order_result {
    size_t *seq;
    dls_order_method method;
    int proven;               /* EXACT or RULE: the order is the best */
    double given, rate, found, bound;
    size_t candidates, points;
    size_t reused;            /* stages the local search's pricing took from the suffixes */
    double seconds;
    char *note;
} dls__order_result;

DLS__HIDDEN dls_status dls__order_best(const dls_platform *pl, const dls__star *st,
                                      const dls_schedule_params *par,
                                      const dls__chain_params *cp, dls__order_result *res,
                                      dls_error *err);
DLS__HIDDEN void dls__order_result_free(dls__order_result *res);

/* A lower bound on the makespan of every order of st (s): the single port relaxed (every
 * link sends at once), in the paper's model (charge_all) every processor charged too;
 * upper: a makespan known to be feasible (the bisection's top). */
DLS__HIDDEN double dls__order_bound(const dls__star *st, int charge_all, double upper);

#endif /* DLSCHED_SCHEDULE_SCHEDULE_IMPL_H */
