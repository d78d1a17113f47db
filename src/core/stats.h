/* Statistics for measurements: quantiles of the normal and Student-t distributions. */
#ifndef DLSCHED_STATS_H
#define DLSCHED_STATS_H

#include "core/internal.h"

/* The p-quantile of the standard normal distribution, 0 < p < 1 (relative error ~1e-9). */
DLS__HIDDEN double dls__normal_quantile(double p);

/* The p-quantile of Student's t distribution with nu >= 1 degrees of freedom, 0.5 <= p < 1
 * (to about 1e-14 relative). */
DLS__HIDDEN double dls__t_quantile(double p, unsigned nu);

/* Degrees of freedom beyond which dls__t_quantile uses the Cornish-Fisher expansion instead
 * of the exact series, whose cost grows with nu. */
#define DLS__T_SERIES_NU_MAX 10000u

#endif /* DLSCHED_STATS_H */
