/* tutorial_3_schedule: step 3 of doc/TUTORIAL.md. Schedules a divisible load on a star
 * (Drozdowski and Wolniewicz 2003): the originator sends each processor its share over its link,
 * one send after the other, and each computes as soon as its data has arrived. Solves once in the
 * platform's send order and once with the best send order, and prints how that order was
 * found. Uses only the public API.
 *
 *   ./tutorial_3_schedule examples/star_cluster.json 1e6
 */
#include <stdio.h>
#include <stdlib.h>

#include <dlsched.h>

/* Prints the schedule in send order; returns 0, or 1 when it is infeasible. */
static int print_schedule(const dls_platform *platform, const dls_schedule *s)
{
    if (dls_schedule_status(s) == DLS_SOLUTION_INFEASIBLE) {
        fprintf(stderr, "%s\n", dls_schedule_note(s));
        return 1;
    }
    const size_t *order = dls_schedule_sequence(s);
    const double *load = dls_schedule_loads(s), *start = dls_schedule_send_start(s);
    const double *finish = dls_schedule_finish(s);
    for (size_t k = 0; k < dls_schedule_count(s); k++) {
        size_t i = order[k];
        if (load[i] > 0)
            printf("  %-8s load %9.1f  sent from %7.3f s  done at %7.3f s\n",
                   dls_platform_name(platform, i), load[i], start[i], finish[i]);
        else
            printf("  %-8s no load\n", dls_platform_name(platform, i));
    }
    printf("  makespan %.3f s\n", dls_schedule_makespan(s));
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s PLATFORM LOAD\n", argv[0]);
        return 2;
    }
    double load = strtod(argv[2], NULL);
    dls_error err;
    dls_platform *platform;
    if (dls_platform_read_file(argv[1], &platform, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    /* 1. The platform's order (the default parameters). */
    dls_schedule *s;
    if (dls_schedule_solve(platform, load, NULL, &s, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        dls_platform_free(platform);
        return 2;
    }
    printf("platform order:\n");
    int rc = print_schedule(platform, s);
    dls_schedule_free(s);

    /* 2. The best send order: exact on small platforms, a search on large ones. */
    dls_schedule_params params;
    dls_schedule_params_init(&params);
    params.order = DLS_ORDER_BEST;
    if (rc == 0 && dls_schedule_solve(platform, load, &params, &s, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        dls_platform_free(platform);
        return 2;
    }
    if (rc == 0) {
        printf("best order:\n");
        rc = print_schedule(platform, s);
        dls_schedule_solver_info info;
        if (rc == 0 && dls_schedule_get_solver_info(s, &info, &err) != DLS_OK) {
            fprintf(stderr, "%s\n", err.message);
            rc = 2;
        } else if (rc == 0) {
            printf("order found by %s (%s), %zu candidates priced\n",
                   dls_order_method_name(info.order_method),
                   info.order_optimal ? "proven best" : "not proven best",
                   info.order_candidates);
            printf("makespan in the platform order %.3f s, in the rate order %.3f s, "
                   "no order below %.3f s\n",
                   info.given_makespan, info.rate_makespan, info.order_lower_bound);
        }
        dls_schedule_free(s);
    }
    dls_platform_free(platform);
    return rc;
}
