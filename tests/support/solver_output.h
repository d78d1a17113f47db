/* Other solvers' answers as the tests read them back: a value in glpsol's output, the
 * time unit an MPS export states. Plain C without cmocka: tests/differential uses them
 * too. */
#ifndef DLSCHED_SOLVER_OUTPUT_H
#define DLSCHED_SOLVER_OUTPUT_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The number after `pattern` in the output of `glpsol ARGS` (the last line that starts
 * with it); NaN when no line does or glpsol cannot be started. */
static inline double test_glpsol_value(const char *glpsol, const char *args,
                                       const char *pattern)
{
    char cmd[2048], line[512];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", glpsol, args);
    FILE *f = popen(cmd, "r");
    if (f == NULL)
        return NAN;
    double v = NAN;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, pattern, strlen(pattern)) == 0)
            v = strtod(line + strlen(pattern), NULL);
    pclose(f);
    return v;
}

/* The time unit an MPS export states in its header ("times, in units of X s": the exports
 * choose their units where seconds and single units of load would put the coefficients out
 * of other solvers' tolerances); 1 when it says none. */
static inline double test_mps_time_unit(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];
    double tu = 1;
    while (f && fgets(line, sizeof line, f) && line[0] == '*') {
        const char *at = strstr(line, "times, in units of ");
        if (at)
            tu = strtod(at + strlen("times, in units of "), NULL);
    }
    if (f)
        fclose(f);
    return tu;
}

#endif /* DLSCHED_SOLVER_OUTPUT_H */
