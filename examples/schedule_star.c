/* schedule_star: the optimal divisible-load schedule of a star platform (Drozdowski and Wolniewicz
 * 2003), its timeline, what one more unit of load would cost, and its Gantt chart. Uses only the
 * public API.
 *
 *   cc schedule_star.c $(pkg-config --cflags --libs dlsched) -o schedule_star
 *   ./schedule_star examples/star_cluster.json 1e6 schedule.svg
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <dlsched.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s PLATFORM LOAD [GANTT.svg]\n", argv[0]);
        return 2;
    }
    double load = strtod(argv[2], NULL);
    dls_error err;
    dls_platform *platform;
    if (dls_platform_read_file(argv[1], &platform, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    dls_schedule *s;
    if (dls_schedule_solve(platform, load, NULL, &s, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        dls_platform_free(platform);
        return 2;
    }
    int rc = 0;
    if (dls_schedule_status(s) == DLS_SOLUTION_INFEASIBLE) {
        fprintf(stderr, "%s\n", dls_schedule_note(s));
        rc = 1;
    } else {
        const size_t *order = dls_schedule_sequence(s);
        const double *ld = dls_schedule_loads(s), *fin = dls_schedule_finish(s);
        const double *ss = dls_schedule_send_start(s);
        for (size_t k = 0; k < dls_schedule_count(s); k++) {
            size_t i = order[k];
            if (ld[i] > 0)
                printf("%-10s load %12.1f  data from %8.3f s  done at %8.3f s\n",
                       dls_platform_name(platform, i), ld[i], ss[i], fin[i]);
            else
                printf("%-10s no load\n", dls_platform_name(platform, i));
        }
        dls_schedule_solver_info info;
        dls_schedule_get_solver_info(s, &info, NULL);
        printf("makespan %.3f s (%s solver, %s, residual %.1e); one unit more: +%.3g s\n",
               dls_schedule_makespan(s), dls_star_solver_name(info.solver),
               info.optimal ? "the best set of processors" : "not proven optimal",
               dls_schedule_residual(s), info.marginal_right);
        if (argc > 3) {
            char *svg;
            if (dls_schedule_gantt_to_string(s, platform, &svg, &err) == DLS_OK) {
                FILE *f = fopen(argv[3], "w");
                if (f == NULL || fputs(svg, f) < 0 || fclose(f) != 0) {
                    fprintf(stderr, "%s: cannot write\n", argv[3]);
                    rc = 2;
                }
                dls_free(svg);
            } else {
                fprintf(stderr, "%s\n", err.message);
                rc = 2;
            }
        }
    }
    dls_schedule_free(s);
    dls_platform_free(platform);
    return rc;
}
