/* The dlsched program: commands, their option tables, and output helpers. The program
 * uses only the public headers of the library. */
#ifndef DLSCHED_TOOL_H
#define DLSCHED_TOOL_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "dlsched.h"

/* Exit statuses of the program (documented in dlsched(1)). */
enum {
    EXIT_DONE = 0,        /* success */
    EXIT_INFEASIBLE = 1,  /* the input is valid but no feasible answer exists */
    EXIT_BADINPUT = 2,    /* bad usage, unreadable or invalid input */
    EXIT_FAILURE_RUN = 3  /* the computation failed (out of memory, numerical failure) */
};

typedef enum tool_opt_type {
    OPT_FLAG,    /* no argument */
    OPT_STRING,  /* any text */
    OPT_DOUBLE,  /* a finite number within [min, max] */
    OPT_COUNT,   /* a whole number within [min, max], up to 2^53 */
    OPT_CHOICE   /* one word of `choices` ("a|b|c") */
} tool_opt_type;

/* One option of a command: a record drives parsing, validation and help. */
typedef struct tool_opt {
    const char *name;     /* long name without "--" */
    tool_opt_type type;
    const char *arg;      /* placeholder in the help ("N", "FILE") */
    const char *deflt;    /* default, as text, or NULL */
    double min, max;      /* bounds of OPT_DOUBLE and OPT_COUNT */
    const char *choices;  /* OPT_CHOICE: "given|rate" */
    const char *help;
} tool_opt;

#define TOOL_MAX_OPTS 32
#define TOOL_MAX_POS 8

struct tool_args;

typedef struct tool_cmd {
    const char *name;
    const char *summary;      /* one line for `dlsched --help` */
    const char *usage;        /* after "dlsched NAME " */
    const char *description;  /* a paragraph for `dlsched help NAME` */
    const tool_opt *opts;     /* terminated by a record with name NULL */
    int pos_min, pos_max;     /* number of positional arguments */
    int (*run)(const struct tool_args *args);
} tool_cmd;

/* The parsed command line of one command. */
typedef struct tool_args {
    const tool_cmd *cmd;
    const char *pos[TOOL_MAX_POS];
    int npos;
    const char *value[TOOL_MAX_OPTS];  /* per option: its text, NULL when not given */
    int given[TOOL_MAX_OPTS];
} tool_args;

/* Parses argv (after the command name); on error prints a message and returns -1. */
int tool_parse(const tool_cmd *cmd, int argc, char **argv, tool_args *args);
/* Prints the help of one command. */
void tool_print_help(const tool_cmd *cmd, FILE *out);

/* Accessors; the option must exist in the command's table. */
int arg_flag(const tool_args *a, const char *name);
const char *arg_string(const tool_args *a, const char *name);     /* NULL when absent */
double arg_double(const tool_args *a, const char *name, double fallback);
uint64_t arg_count(const tool_args *a, const char *name, uint64_t fallback);
int arg_given(const tool_args *a, const char *name);

/* Output helpers. */
void tool_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tool_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int tool_exit_for(dls_status status);          /* exit status for a failed call */
int tool_fail(dls_status status, const dls_error *err);  /* prints err, returns exit status */
int tool_print_json(json_t *value);            /* prints and releases value; exit status */
json_t *tool_json_number(double v);            /* a real, or null when not finite */
const char *tool_num(double v, char *buf, size_t size);  /* %.6g, "inf" for no limit */

/* Commands. */
int cmd_check(const tool_args *args);
int cmd_partition(const tool_args *args);
int cmd_schedule(const tool_args *args);
int cmd_evaluate(const tool_args *args);
int cmd_export(const tool_args *args);
int cmd_bench(const tool_args *args);
int cmd_plot(const tool_args *args);
int cmd_lu(const tool_args *args);
int cmd_crosscheck(const tool_args *args);
int cmd_installments(const tool_args *args);

extern const tool_cmd tool_cmd_check;
extern const tool_cmd tool_cmd_partition;
extern const tool_cmd tool_cmd_schedule;
extern const tool_cmd tool_cmd_evaluate;
extern const tool_cmd tool_cmd_export;
extern const tool_cmd tool_cmd_bench;
extern const tool_cmd tool_cmd_plot;
extern const tool_cmd tool_cmd_lu;
extern const tool_cmd tool_cmd_crosscheck;
extern const tool_cmd tool_cmd_installments;

#endif /* DLSCHED_TOOL_H */
